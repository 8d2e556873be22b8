public import PlaytraceCore

/// An ad break the stream signals in its own metadata (in HLS: `EXT-X-DATERANGE` with SCTE-35, an interstitial,
/// or `EXT-X-CUE-OUT`/`CUE-IN` tags), as the engine has read it so far.
///
/// Engines report breaks as their playlists arrive, so that the breaks of a live stream are known as they appear,
/// not only those of the first playlist (``EngineEvent/adBreaksChanged(_:)``, ``EngineSnapshot/adBreaks``).
public struct SignalledAdBreak: Sendable, Hashable, Codable, Identifiable {
    /// The signal's identifier: the date range's ID, or one the engine makes for cue tags.
    public var id: String
    /// How the break was signalled (`daterange-scte35`, `interstitial`, `cue-out`, …).
    public var source: String
    /// Where the break starts on the item's timeline, when it can be placed.
    public var start: MediaTime?
    /// The stream date of its start, when known.
    public var startDate: StreamDate?
    /// Its duration: announced, or measured from its end signal.
    public var duration: MediaTime?
    /// Whether its end was signalled.
    public var isClosed: Bool
    /// The SVTA2053 ad creative signaling (its JSON envelope) the break carries, when the media signals it in-band
    /// (a DASH segment's `emsg`): the ads, their times and tracking, for an ad session that reads the stream's own
    /// signaling.
    public var creativeSignaling: String?

    public init(id: String, source: String, start: MediaTime? = nil, startDate: StreamDate? = nil,
                duration: MediaTime? = nil, isClosed: Bool = false, creativeSignaling: String? = nil) {
        self.id = id
        self.source = source
        self.start = start
        self.startDate = startDate
        self.duration = duration
        self.isClosed = isClosed
        self.creativeSignaling = creativeSignaling
    }

    /// The break's range on the item's timeline, when its start and duration are known.
    public var timeRange: MediaTimeRange? {
        guard let start, let duration else { return nil }
        return MediaTimeRange(start: start, end: start + duration)
    }

    /// Whether the break is stitched into the primary content: not an interstitial, which plays apart from it.
    public var isStitched: Bool { source != "interstitial" }

    /// Whether the break is stitched into the primary content (``isStitched``) and covers `time`: from its start, to
    /// its end when its duration is known, or for as long as it is open.
    public func isStitched(at time: MediaTime) -> Bool {
        guard isStitched, let start, time >= start else { return false }
        guard let duration else { return !isClosed }
        return time < start + duration
    }
}
