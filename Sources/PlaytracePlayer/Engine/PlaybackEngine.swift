public import Foundation
public import PlaytraceCore

/// What to play.
public struct EngineSource: Sendable, Hashable {
    /// A multivariant or media playlist URL (or a media file, for engines that decode).
    public var url: URL
    /// Where to start, when not the default (the start of on-demand streams, the live edge otherwise).
    public var startPosition: MediaTime?
    /// Ranges never to play (see ``PlaybackEngine/setSkippedRanges(_:)``); a start inside one moves to its end.
    public var skippedRanges: MediaTimeRangeSet

    public init(url: URL, startPosition: MediaTime? = nil, skippedRanges: MediaTimeRangeSet = MediaTimeRangeSet()) {
        self.url = url
        self.startPosition = startPosition
        self.skippedRanges = skippedRanges
    }
}

/// A media engine the Player drives: the headless HLS client, libmpv, or AVFoundation on Apple platforms.
///
/// Engines do their work off the main actor and report through ``events()`` (every change, in order) and
/// ``snapshot()`` (the state now). Commands return once the engine has taken them into account, not when their
/// effect is complete: a seek's end is reported by ``EngineEvent/seekEnded(at:completed:)``.
///
/// ```swift
/// let engine: any PlaybackEngine = HeadlessEngine(clock: clock, transport: transport)
/// let events = engine.events()
/// await engine.load(EngineSource(url: url))
/// await engine.play()
/// for await event in events { if event == .ended { break } }
/// ```
public protocol PlaybackEngine: AnyObject, Sendable {
    /// A new stream of the events from now on; several observers may subscribe.
    nonisolated func events() -> AsyncStream<EngineEvent>
    /// The state now.
    func snapshot() async -> EngineSnapshot
    /// Loads a source, replacing the current one.
    func load(_ source: EngineSource) async
    /// Asks for playback (it starts as soon as enough is buffered).
    func play() async
    /// Pauses.
    func pause() async
    /// Seeks to a position (clamped to the seekable range), landing anywhere from `toleranceBefore` before it to
    /// `toleranceAfter` after it: an engine lands where it is quickest within them (a segment boundary, a key
    /// frame), exactly on the position when both are zero. The result is reported by events.
    func seek(to position: MediaTime, toleranceBefore: MediaTime, toleranceAfter: MediaTime) async
    /// Sets the playback rate (1 is normal speed).
    func setRate(_ rate: Double) async
    /// Restricts the variants adaptive bit rate may choose.
    func setVariantLimits(_ limits: VariantLimits) async
    /// Sets the ranges the playhead must never enter. Playback that reaches the start of one continues from its
    /// end without playing any of it (reported by ``EngineEvent/rangeSkipped(_:)``); a range that reaches the end
    /// of an on-demand item ends it. The engine does this itself because only it knows, to the frame, when the
    /// playhead gets there: a player that polls the position and seeks afterwards always shows some of the range.
    func setSkippedRanges(_ ranges: MediaTimeRangeSet) async
    /// Sets the audio volume (0…1) and whether audio is muted.
    func setVolume(_ volume: Double, isMuted: Bool) async
    /// Chooses the rendition of a kind of media (`nil`: the default audio, or no subtitles).
    func selectMediaOption(_ id: MediaOption.ID?, for kind: MediaOption.Kind) async
    /// Turns progress reports on or off: while on, every movement of the playhead during playback is reported as
    /// ``EngineEvent/progressed(_:)``, in order, each starting where the previous one ended unless a seek, a
    /// skipped range or a discontinuity came between. Off by default: only trackers that need every instant ask.
    func setReportsProgress(_ enabled: Bool) async
    /// Sets the points at which progress reports end exactly (replacing the previous ones): while reports are on,
    /// the engine advances the playhead to a boundary it would otherwise pass between two reports, reports that
    /// movement, then goes on, so that a tracker sees the crossing within a fraction of a millisecond rather than
    /// up to a report interval late. Boundaries never change where playback goes; engines that cannot stop at a
    /// point report as usual.
    func setProgressBoundaries(_ boundaries: [PlaybackBoundary]) async
    /// Skips the interstitial that plays, unless it is restricted (`X-RESTRICT=SKIP`); nothing when none plays.
    func skipInterstitial() async
    /// Stops everything and releases the source; the engine returns to ``EngineStatus/idle``.
    func stop() async
}

extension PlaybackEngine {
    /// Seeks exactly to a position (both tolerances zero).
    /// - Parameter position: the target.
    public func seek(to position: MediaTime) async {
        await seek(to: position, toleranceBefore: .zero, toleranceAfter: .zero)
    }
}
