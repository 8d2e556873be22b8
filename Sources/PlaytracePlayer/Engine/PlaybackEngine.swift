public import Foundation
public import PlaytraceCore

/// What to play.
public struct EngineSource: Sendable, Hashable {
    /// A multivariant or media playlist URL (or a media file, for engines that decode).
    public var url: URL
    /// Where to start, when not the default (the start of on-demand streams, the live edge otherwise).
    public var startPosition: MediaTime?

    public init(url: URL, startPosition: MediaTime? = nil) {
        self.url = url
        self.startPosition = startPosition
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
    /// Seeks to a position (clamped to the seekable range); the result is reported by events.
    func seek(to position: MediaTime) async
    /// Sets the playback rate (1 is normal speed).
    func setRate(_ rate: Double) async
    /// Restricts the variants adaptive bit rate may choose.
    func setVariantLimits(_ limits: VariantLimits) async
    /// Stops everything and releases the source; the engine returns to ``EngineStatus/idle``.
    func stop() async
}
