import Clocks
import Foundation
import PlaytraceCore
import PlaytraceHeadless
import PlaytraceLab
import PlaytraceNetwork
import PlaytracePlayer
import PlaytraceTestSupport
import Testing

/// A Player over headless engines playing from the lab on loopback, everything on one test clock.
///
/// Time moves only when the test advances it. After each step the harness waits (in real time) until the system
/// is quiescent: every request of every engine the player created is parked on the lab's clock (or there is
/// none), the player has no command waiting for an engine, and no engine event is left to handle.
@MainActor
final class PlayerHarness {
    let clock = SteppingClock()
    let lab: LabServer
    let transport: AsyncHTTPClientTransport
    let baseURL: URL
    private(set) var engines: [HeadlessEngine] = []
    private(set) var player: Player!

    init(lab configuration: LabConfiguration = LabConfiguration(),
         player playerConfiguration: Player.Configuration = Player.Configuration(),
         items: (PlayerHarness) -> [PlayerItem] = { _ in [] }) async throws {
        lab = LabServer(clock: clock, configuration: configuration)
        let port = try await lab.start()
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
        transport = AsyncHTTPClientTransport(clock: clock)
        let clock = self.clock
        let transport = self.transport
        player = Player(items: items(self), configuration: playerConfiguration, clock: clock) { [unowned self] in
            let engine = HeadlessEngine(clock: clock, transport: transport)
            self.engines.append(engine)
            return engine
        }
        await settle()
    }

    func shutdown() async {
        player.removeAllItems()
        await settle()
        player = nil
        for engine in engines { await engine.stop() }
        try? await transport.shutdown()
        await lab.stop()
    }

    func url(_ path: String) -> URL { baseURL.appendingPathComponent(path) }

    /// Waits until every sleeper the clock woke has run, then until the engines, the lab and the player are
    /// quiescent.
    func settle(sourceLocation: SourceLocation = #_sourceLocation) async {
        await clock.waitForWokenSleepers()
        let settled = await waitForQuiescence(
            inFlight: {
                var count = 0
                for engine in engines { count += await engine.snapshot().requestsInFlight }
                return count
            },
            parked: { lab.parkedResponses }, handledEvents: { player?.handledEventCount ?? 0 },
            hasPendingWork: { player?.hasPendingWork ?? false })
        if !settled { Issue.record("the player, its engines and the lab did not settle", sourceLocation: sourceLocation) }
    }

    /// Advances the clock step by step, settling after each step.
    func advance(by total: Duration, step: Duration = .milliseconds(100)) async {
        await ClockStepper(clock: clock).advance(by: total, step: step) { await settle() }
    }

    /// Advances until `condition` holds, at most `limit` of clock time.
    func advance(until condition: () -> Bool, limit: Duration, step: Duration = .milliseconds(100),
                 sourceLocation: SourceLocation = #_sourceLocation) async {
        let met = await ClockStepper(clock: clock).advance(until: { condition() }, limit: limit, step: step) {
            await settle()
        }
        if !met {
            Issue.record("condition not met after \(limit) of clock time (state \(player.playbackState), time \(player.time))",
                         sourceLocation: sourceLocation)
        }
    }
}

/// Metadata of the tests' items.
struct TestMetadata: AssetMetadata, Hashable {
    var title: String
    var timeRanges: [TimeRange] = []
    var chapters: [Chapter] = []

    var playerMetadata: PlayerMetadata {
        PlayerMetadata(identifier: title, title: title, chapters: chapters, timeRanges: timeRanges)
    }
}

/// Where a recording tracker writes: one line per life-cycle call, in order.
@MainActor
final class TrackerLog {
    var lines: [String] = []
    var propertyUpdates: [String: Int] = [:]
    var lastProperties: TrackerProperties?
    var metricEvents: [String: [MetricEvent]] = [:]

    /// The lines without the ones that say the same thing twice in a row (metric-event counts change often).
    func lines(matching prefix: String) -> [String] { lines.filter { $0.hasPrefix(prefix) } }
}

/// A tracker that writes its life cycle to a log.
final class RecordingTracker: PlayerItemTracker {
    struct Configuration: Sendable {
        let name: String
        let log: TrackerLog
    }

    private let configuration: Configuration
    private var title = "?"
    private var session = 0

    init(configuration: Configuration) {
        self.configuration = configuration
        configuration.log.lines.append("\(configuration.name) init")
    }

    isolated deinit {
        configuration.log.lines.append("\(configuration.name) deinit")
    }

    func enable(for player: Player) {
        session += 1
        configuration.log.lines.append("\(configuration.name) enable")
    }

    func updateMetadata(to metadata: String) {
        title = metadata
        configuration.log.lines.append("\(configuration.name) metadata \(metadata)")
    }

    func updateProperties(to properties: TrackerProperties) {
        configuration.log.propertyUpdates[configuration.name, default: 0] += 1
        configuration.log.lastProperties = properties
    }

    func updateMetricEvents(to events: [MetricEvent]) {
        configuration.log.metricEvents[configuration.name] = events
    }

    func disable(with properties: TrackerProperties) {
        configuration.log.lines.append("\(configuration.name) disable at \(Int(properties.time.seconds.rounded()))")
    }

    var sessionIdentifier: String? { "\(configuration.name)-\(session)" }
}

extension PlayerHarness {
    /// An item of the lab's on-demand stream (40 s) with a recording tracker.
    func item(_ name: String, log: TrackerLog, path: String = "vod/master.m3u8", timeRanges: [TimeRange] = [],
              chapters: [Chapter] = [], behavior: TrackingBehavior = .optional) -> PlayerItem {
        PlayerItem.simple(url: url(path), metadata: TestMetadata(title: name, timeRanges: timeRanges, chapters: chapters),
                          trackerAdapters: [
                              RecordingTracker.adapter(configuration: .init(name: name, log: log), behavior: behavior) {
                                  $0.title
                              },
                          ])
    }
}

func range(_ start: Double, _ end: Double) -> MediaTimeRange {
    MediaTimeRange(start: MediaTime(seconds: start), end: MediaTime(seconds: end))
}
