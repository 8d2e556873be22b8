import DequeModule
import PlaytraceCore

/// One playback of one item: its engine, the engine's last snapshot, its metric events and timings.
///
/// A session begins when its item is preloaded or becomes current, and ends when the item stops being current, is
/// replayed or repeated. Commands reach the engine in the order they are sent, through one queue.
@MainActor
final class ItemSession {
    typealias Command = @Sendable (any PlaybackEngine) async -> Void

    let item: PlayerItem
    let engine: any PlaybackEngine
    /// When the session was created, on the player's stopwatch (metric event times count from here).
    let createdAt: Duration
    private(set) var snapshot = EngineSnapshot()
    /// What the variants hold, worked out when they change (not at every properties capture).
    private(set) var mediaType = MediaType.unknown
    /// When ``snapshot`` was taken.
    private(set) var snapshotAt: Duration
    var collector = MetricEventCollector()
    /// Quality-of-service samples, one per periodic refresh while current (``Player/metrics()``).
    var metricsHistory = Deque<Metrics>()
    /// The asset, once the item's loader finished.
    var asset: LoadedAsset?
    /// When the item became current (nil while preloaded).
    var becameCurrentAt: Duration?
    /// When the engine reported the source loaded.
    var engineLoadedAt: Duration?
    /// The rendition last asked of the engine for each kind of media (`.some(nil)`: no subtitles).
    var requestedMediaSelection: [MediaOption.Kind: MediaOption.ID?] = [:]
    var hasRecordedMetadataTiming = false
    var hasRecordedAssetTiming = false
    /// The fatal error that ended the session, if any.
    var failure: (any Error)?
    private(set) var isClosed = false
    /// Commands sent and not yet carried out, and engine events being handled (for tests to know when the
    /// player is idle).
    private(set) var pendingWork = 0
    private(set) var handledEvents = 0

    private let commands: AsyncStream<Command>.Continuation
    private var tasks: [Task<Void, Never>] = []

    init(item: PlayerItem, engine: any PlaybackEngine, createdAt: Duration) {
        self.item = item
        self.engine = engine
        self.createdAt = createdAt
        snapshotAt = createdAt
        let (stream, continuation) = AsyncStream<Command>.makeStream()
        commands = continuation
        tasks.append(Task { @MainActor [weak self, engine] in
            for await command in stream {
                await command(engine)
                self?.pendingWork -= 1
            }
        })
    }

    /// Starts delivering the engine's events to `handler`, one at a time and in order.
    func observeEvents(_ handler: @escaping @MainActor (ItemSession, EngineEvent) async -> Void) {
        let events = engine.events()
        tasks.append(Task { @MainActor [weak self] in
            for await event in events {
                guard let self, !self.isClosed else { return }
                self.pendingWork += 1
                await handler(self, event)
                self.pendingWork -= 1
                self.handledEvents += 1
            }
        })
    }

    /// Reads the engine's state every `interval` and hands it to `handler`, until the session closes.
    func refreshPeriodically(every interval: Duration, stopwatch: Stopwatch,
                             _ handler: @escaping @MainActor (ItemSession) -> Void) {
        guard interval > .zero else { return }
        tasks.append(Task { @MainActor [weak self] in
            while true {
                do { try await stopwatch.sleep(for: interval) } catch { return }
                guard let self, !self.isClosed else { return }
                self.pendingWork += 1
                await self.refreshSnapshot(stopwatch: stopwatch)
                self.pendingWork -= 1
                guard !self.isClosed else { return }
                handler(self)
            }
        })
    }

    /// Sends a command to the engine, after those sent before.
    func send(_ command: @escaping Command) {
        guard !isClosed else { return }
        pendingWork += 1
        commands.yield(command)
    }

    /// Reads the engine's state.
    func refreshSnapshot(stopwatch: Stopwatch) async {
        let snapshot = await engine.snapshot()
        guard !isClosed else { return }
        if snapshot.variants != self.snapshot.variants { mediaType = MediaType(variants: snapshot.variants) }
        self.snapshot = snapshot
        snapshotAt = stopwatch.elapsed
    }

    /// Time since the session began, for metric events.
    func sessionTime(_ stopwatch: Stopwatch) -> Duration { stopwatch.elapsed - createdAt }

    /// The playhead now: the snapshot's, moved on by the time since it was taken while playing (never past what
    /// is buffered).
    func playhead(now: Duration) -> MediaTime {
        // While an interstitial plays the primary waits: its playhead does not move.
        guard snapshot.status == .playing, snapshot.interstitial == nil else { return snapshot.playhead }
        let moved = MediaTime(seconds: (now - snapshotAt).seconds * snapshot.rate)
        return min(snapshot.playhead + moved, max(snapshot.playhead, snapshot.loadedRange.end))
    }

    var hasEnded: Bool { snapshot.status == .ended }
    var hasFailed: Bool { failure != nil }

    /// Stops the engine and everything the session runs.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        pendingWork += 1
        let item = item
        commands.yield { engine in
            // What the engine played is kept on the item before the engine forgets it.
            let final = await engine.snapshot()
            await MainActor.run { item.finalSnapshot = final }
            await engine.stop()
        }
        commands.finish()
        for task in tasks.dropFirst() { task.cancel() }
    }
}
