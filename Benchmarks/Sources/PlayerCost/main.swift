// The Player's CPU cost per hour of playback, alone and with the whole telemetry chain.
//
// Plays `hours` of a synthetic on-demand stream (SyntheticEngine: one segment request every 4 s, the playhead
// moving with the clock) on a test clock advanced one second at a time, with one tracker on the item, and prints
// the process's CPU time. `--baseline` runs the same engine and clock without a Player (the engine's events are
// consumed by a plain loop): the difference is the Player's cost. `--telemetry` adds what a playing session
// carries in production: the PlayerTelemetryTracker, an Instrument with HubCore (30 s heartbeat) and MetricalcCore,
// the InfluxDB backend (batches every 5 s) and an Outbox on an SQLite file delivering them (to a courier that
// accepts each batch without a network: the HTTP client's own work is left out). `--ads` adds the ad tracker of an
// SSAI session instead: an AdBeaconingSession whose metadata lists a 30 s break of three ads every 5 minutes (12
// breaks, 36 ads, 264 beacons an hour), the engine's progress report every 100 ms that it asks for, and its beacons
// handed to an Outbox on an SQLite file (a courier that takes each without a network). scripts/bench runs the modes
// under `valgrind --tool=callgrind` (instruction counts, repeatable).
import Clocks
import Foundation
import PlaytraceAds
import PlaytraceBackends
import PlaytraceCore
import PlaytraceNetwork
import PlaytracePlayer
import PlaytraceTelemetry
import SyntheticEngine

/// Takes every batch as delivered, without a network.
struct AcceptingCourier: OutboxCourier {
    var name = InfluxDBBackend.destination
    func deliver(_ message: OutboxMessage) async -> DeliveryOutcome { .delivered }
}

/// A break of three 10 s ads every 5 minutes, on the media timeline, each ad with its six automatic events and four
/// player-initiated ones; a break-level breakStart and breakEnd.
func adMetadata(hours: Double) -> AdMetadata {
    var pods: [AdPod] = []
    var start = 120_000.0
    while start + 30_000 < hours * 3_600_000 {
        let podID = "break-\(pods.count + 1)"
        func event(_ type: TrackingEventType, ad: String?, at time: Double, duration: Double = 0) -> TrackingEvent {
            TrackingEvent(id: TrackingEventKey(podID: podID, adID: ad, event: type, time: Int64(time)), event: type,
                          startTime: AdTime(milliseconds: time), duration: AdTime(milliseconds: duration),
                          signalingUrls: ["https://beacons.example/\(podID)/\(ad ?? "-")/\(type.rawValue)?cb=[CACHEBUSTING]"])
        }
        let ads = (0..<3).map { index -> Ad in
            let adStart = start + Double(index) * 10_000
            let id = "ad-\(index + 1)"
            var events = [(TrackingEventType.impression, 0.0), (.start, 0), (.firstQuartile, 0.25), (.midpoint, 0.5),
                          (.thirdQuartile, 0.75), (.complete, 1)].map { event($0.0, ad: id, at: adStart + $0.1 * 10_000) }
            events += [TrackingEventType.pause, .resume, .mute, .unmute].map { event($0, ad: id, at: adStart, duration: 10_000) }
            return Ad(id: id, startTime: AdTime(milliseconds: adStart), duration: 10_000, trackingEvents: events)
        }
        pods.append(AdPod(id: podID, startTime: AdTime(milliseconds: start), duration: 30_000, ads: ads,
                          trackingEvents: [event(.breakStart, ad: nil, at: start), event(.breakEnd, ad: nil, at: start + 30_000)]))
        start += 300_000
    }
    return AdMetadata(pods: pods, timeline: .mediaTime)
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
func run(hours: Double, baseline: Bool, telemetry: Bool, ads: Bool) async {
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
    var adSession: AdBeaconingSession?
    if ads {
        do {
            let store = try Outbox(path: outboxPath, couriers: [AcceptingCourier(name: BeaconCourier.destination)], clock: clock)
            await store.start()
            let session = AdBeaconingSession(outbox: store, clock: clock)
            session.apply(adMetadata(hours: hours))
            adapters.append(AdTracker.adapter(configuration: session))
            adSession = session
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
    instrument?.shutdown()
    if let outbox {
        await outbox.flush()
        delivered = (try? await outbox.statistics().delivered) ?? 0
        await outbox.stop()
    }
    let beacons = adSession?.beacons.count ?? 0
    var time = player?.time.seconds ?? 0
    if let engine { time = await engine.snapshot().playhead.seconds }
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    let mode = baseline ? "baseline" : telemetry ? "player+telemetry" : ads ? "player+ads" : "player"
    print("mode=\(mode) hours=\(hours) playhead=\(Int(time)) tracker_updates=\(CountingTracker.updates) "
        + "messages_delivered=\(delivered) beacons=\(beacons) cpu_seconds=\(String(format: "%.3f", cpu))")
    consumer?.cancel()
}

/// libdispatch's hooks for a run loop that serves the main queue (what Foundation's run loop calls): the main
/// queue's wake-up descriptor (an eventfd on Linux) and the drain of the jobs waiting on it. Invariant (what makes
/// the raw pointer sound): the drain is called with `nil`, as Foundation's run loop calls it.
@_silgen_name("_dispatch_get_main_queue_handle_4CF") func mainQueueHandle() -> Int32
@_silgen_name("_dispatch_main_queue_callback_4CF") func drainMainQueue(_ message: UnsafeMutableRawPointer?)

let arguments = CommandLine.arguments.dropFirst()
let hours = arguments.first.flatMap(Double.init) ?? 1
Task { @MainActor in
    await run(hours: hours, baseline: arguments.contains("--baseline"), telemetry: arguments.contains("--telemetry"),
              ads: arguments.contains("--ads"))
    exit(0)
}
// The main actor's jobs are run by a loop that waits on the main queue's descriptor and drains it, as the
// command-line tool's dispatch_main() does, rather than by dispatch_main() itself (valgrind 3.19 crashes on it, and
// the instruction counts need valgrind) or by Foundation's run loop (which spent about 4,700 instructions looking
// up its mode on every wake-up, a quarter of the whole count, work the command-line tool does not do).
let handle = mainQueueHandle()
while true {
    var descriptor = pollfd(fd: handle, events: Int16(POLLIN), revents: 0)
    guard poll(&descriptor, 1, -1) >= 0 || errno == EINTR else { break }
    var wakeups: UInt64 = 0
    _ = read(handle, &wakeups, MemoryLayout<UInt64>.size)
    drainMainQueue(nil)
}
print("PlayerCost: the main queue's descriptor could not be waited on (errno \(errno))")
exit(1)
