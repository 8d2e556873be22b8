import Clocks
import Foundation
import PlaytraceCore
import PlaytraceHeadless
import PlaytraceLab
import PlaytraceNetwork
import PlaytracePlayer
import PlaytraceTestSupport
import Testing

/// The lab on loopback and a headless engine, both on one test clock.
///
/// Time only moves when the test advances it. After each step the harness waits (in real time, on loopback)
/// until the system is quiescent: every request the engine has in flight is parked on the lab's clock (a
/// throttled or delayed response), or there is none. That makes runs deterministic in what they assert.
final class EngineHarness: Sendable {
    let clock = SteppingClock()
    /// Started with the lab: reads the time since the lab's start.
    let stopwatch: Stopwatch
    let lab: LabServer
    let engine: HeadlessEngine
    let transport: AsyncHTTPClientTransport
    let recorder: EventRecorder
    let baseURL: URL

    init(lab configuration: LabConfiguration = LabConfiguration(),
         engine engineConfiguration: HeadlessEngine.Configuration = HeadlessEngine.Configuration()) async throws {
        stopwatch = Stopwatch(clock: clock)
        lab = LabServer(clock: clock, configuration: configuration)
        let port = try await lab.start()
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
        transport = AsyncHTTPClientTransport(clock: clock)
        engine = HeadlessEngine(clock: clock, transport: transport, configuration: engineConfiguration)
        recorder = EventRecorder(engine.events())
    }

    func shutdown() async {
        await engine.stop()
        try? await transport.shutdown()
        await lab.stop()
    }

    func url(_ path: String) -> URL { baseURL.appendingPathComponent(path) }

    func start(_ path: String, play: Bool = true) async {
        await engine.load(EngineSource(url: url(path)))
        if play { await engine.play() }
        await settle()
    }

    /// Waits until every sleeper the clock woke has run, then until every in-flight request is parked on the lab's
    /// clock.
    func settle(sourceLocation: SourceLocation = #_sourceLocation) async {
        await clock.waitForWokenSleepers()
        let engine = engine
        guard await lab.settle(inFlight: { await engine.snapshot().requestsInFlight }) else {
            Issue.record("the engine and the lab did not settle", sourceLocation: sourceLocation)
            return
        }
    }

    /// Advances the clock step by step, settling after each step.
    func advance(by total: Duration, step: Duration = .milliseconds(100)) async {
        await ClockStepper(clock: clock).advance(by: total, step: step) { await settle() }
    }

    /// Advances until the snapshot satisfies `condition`, at most `limit` of clock time; returns the last snapshot.
    @discardableResult
    func advance(until condition: (EngineSnapshot) -> Bool, limit: Duration, step: Duration = .milliseconds(100),
                 sourceLocation: SourceLocation = #_sourceLocation) async -> EngineSnapshot {
        let engine = engine
        var snapshot = await engine.snapshot()
        let met = await ClockStepper(clock: clock).advance(until: {
            snapshot = await engine.snapshot()
            return condition(snapshot)
        }, limit: limit, step: step) { await settle() }
        if !met {
            Issue.record("condition not met after \(limit) of clock time; last snapshot: \(snapshot.status), playhead \(snapshot.playhead)",
                         sourceLocation: sourceLocation)
        }
        return snapshot
    }
}

/// Collects an engine's events as they come.
final class EventRecorder: Sendable {
    private let storage = Storage()
    private let task: Task<Void, Never>

    init(_ events: AsyncStream<EngineEvent>) {
        let storage = self.storage
        task = Task { for await event in events { await storage.append(event) } }
    }

    deinit { task.cancel() }

    var events: [EngineEvent] {
        get async {
            for _ in 0..<10 { await Task.yield() }
            return await storage.events
        }
    }

    actor Storage {
        var events: [EngineEvent] = []
        func append(_ event: EngineEvent) { events.append(event) }
    }
}
