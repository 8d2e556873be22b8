// The Player's CPU cost per hour of playback, alone and with the whole telemetry chain.
//
// Plays `hours` of a synthetic on-demand stream (SyntheticEngine: one segment request every 4 s, the playhead
// moving with the clock) on a test clock advanced one second at a time, with one tracker on the item, and prints
// the process's CPU time. `--baseline` runs the same engine and clock without a Player (the engine's events are
// consumed by a plain loop): the difference is the Player's cost. `--telemetry` adds what a playing session
// carries in production: the PlayerTelemetryTracker, an Instrument with HubCore (30 s heartbeat) and MetricalcCore,
// the InfluxDB backend (batches every 5 s) and an Outbox on an SQLite file delivering them (to a courier that
// accepts each batch without a network: the HTTP client's own work is left out). scripts/bench runs the modes under
// `valgrind --tool=callgrind` (instruction counts, repeatable).
import Clocks
import Foundation
import PlaytraceBackends
import PlaytraceCore
import PlaytraceNetwork
import PlaytracePlayer
import PlaytraceTelemetry
import SyntheticEngine

/// Takes every batch as delivered, without a network.
struct AcceptingCourier: OutboxCourier {
    let name = InfluxDBBackend.destination
    func deliver(_ message: OutboxMessage) async -> DeliveryOutcome { .delivered }
}

final class CountingTracker: PlayerItemTracker {
    static var updates = 0
    init(configuration: Void) {}
    func enable(for player: Player) {}
    func updateMetadata(to metadata: Void) {}
    func updateProperties(to properties: TrackerProperties) { Self.updates += 1 }
    func updateMetricEvents(to events: [MetricEvent]) {}
    func disable(with properties: TrackerProperties) {}
}

@MainActor
func run(hours: Double, baseline: Bool, telemetry: Bool) async {
    let clock = TestClock<Duration>()
    var instrument: Instrument?
    var outbox: Outbox?
    let outboxPath = FileManager.default.temporaryDirectory.appendingPathComponent("player-cost-\(UUID().uuidString).sqlite").path
    defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: outboxPath + suffix) } }
    var adapters: [TrackerAdapter<EmptyAssetMetadata>] = [CountingTracker.adapter()]
    if telemetry {
        do {
            let store = try Outbox(path: outboxPath, couriers: [AcceptingCourier()], clock: clock)
            await store.start()
            let influx = InfluxDBBackend(configuration: .init(url: URL(string: "http://127.0.0.1:8086")!,
                                                              api: .v1(database: "playtrace")), outbox: store)
            let made = Instrument(hub: HubCore(), metricalc: MetricalcCore(), backends: [influx], clock: clock)
            made.ready()
            adapters.append(PlayerTelemetryTracker.adapter(configuration: .init(instrument: made, sessionID: "viewer"),
                                                           behavior: .mandatory) { _ in
                TelemetryMetadata(contentID: "urn:synthetic", title: "Synthetic", source: "synthetic://stream.m3u8")
            })
            instrument = made
            outbox = store
        } catch {
            print("PlayerCost: the outbox could not be opened: \(error)")
            exit(1)
        }
    }
    let duration = MediaTime(seconds: hours * 3600)
    var player: Player?
    var engine: SyntheticEngine?
    var consumer: Task<Void, Never>?
    if baseline {
        let synthetic = SyntheticEngine(clock: clock, duration: duration)
        let events = synthetic.events()
        consumer = Task { for await _ in events {} }
        await synthetic.load(EngineSource(url: URL(string: "synthetic://stream.m3u8")!))
        await synthetic.play()
        engine = synthetic
    } else {
        let item = PlayerItem.simple(url: URL(string: "synthetic://stream.m3u8")!, trackerAdapters: adapters)
        player = Player(item: item, clock: clock) { SyntheticEngine(clock: clock, duration: duration) }
        player?.play()
    }
    for _ in 0..<Int(hours * 3600) {
        await clock.advance(by: .seconds(1))
        for _ in 0..<4 { await Task.yield() }
    }
    var delivered = 0
    if let outbox, let instrument {
        instrument.shutdown()
        await outbox.flush()
        delivered = (try? await outbox.statistics().delivered) ?? 0
        await outbox.stop()
    }
    var time = player?.time.seconds ?? 0
    if let engine { time = await engine.snapshot().playhead.seconds }
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    print("mode=\(baseline ? "baseline" : telemetry ? "player+telemetry" : "player") hours=\(hours) playhead=\(Int(time)) "
        + "tracker_updates=\(CountingTracker.updates) batches_delivered=\(delivered) cpu_seconds=\(String(format: "%.3f", cpu))")
    consumer?.cancel()
}

let arguments = CommandLine.arguments.dropFirst()
let hours = arguments.first.flatMap(Double.init) ?? 1
// A run loop drives the main actor rather than an async main: valgrind 3.19 crashes on the async main's
// dispatch_main() here, and the instruction counts need valgrind.
Task { @MainActor in
    await run(hours: hours, baseline: arguments.contains("--baseline"), telemetry: arguments.contains("--telemetry"))
    exit(0)
}
RunLoop.main.run()
