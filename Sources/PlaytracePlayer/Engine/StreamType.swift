/// What kind of stream an item is, as Pillarbox names it.
public enum StreamType: String, Sendable, Hashable, Codable {
    /// Not known yet.
    case unknown
    /// On-demand: a fixed duration, seekable throughout.
    case onDemand
    /// Live without a useful window to seek in.
    case live
    /// Live with a seekable window (digital video recording).
    case dvr
}

/// What an engine is doing.
public enum EngineStatus: String, Sendable, Hashable, Codable {
    /// Nothing loaded.
    case idle
    /// Loading playlists and filling the buffer before the first frame.
    case loading
    /// Ready, not playing.
    case paused
    /// The playhead moves.
    case playing
    /// Playback wanted but the buffer ran dry after it started (a rebuffering, not startup or seek).
    case stalled
    /// The end of an on-demand stream was reached.
    case ended
    /// A fatal error stopped playback (see ``EngineSnapshot/error``).
    case failed
}
