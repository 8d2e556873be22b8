// The Player's CPU cost per hour of playback.
//
// Plays `hours` of a synthetic on-demand stream (SyntheticEngine: one segment request every 4 s, the playhead
// moving with the clock) on a test clock advanced one second at a time, with one tracker on the item, and prints
// the process's CPU time. `--baseline` runs the same engine and clock without a Player (the engine's events are
// consumed by a plain loop): the difference is the Player's cost. scripts/bench-player runs both under
// `valgrind --tool=callgrind` (instruction counts, repeatable) and natively (CPU seconds).
import Clocks
import Foundation
import PlaytraceCore
import PlaytracePlayer
import SyntheticEngine

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
func run(hours: Double, baseline: Bool) async {
    let clock = TestClock<Duration>()
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
        let item = PlayerItem.simple(url: URL(string: "synthetic://stream.m3u8")!,
                                     trackerAdapters: [CountingTracker.adapter()])
        player = Player(item: item, clock: clock) { SyntheticEngine(clock: clock, duration: duration) }
        player?.play()
    }
    for _ in 0..<Int(hours * 3600) {
        await clock.advance(by: .seconds(1))
        for _ in 0..<4 { await Task.yield() }
    }
    var time = player?.time.seconds ?? 0
    if let engine { time = await engine.snapshot().playhead.seconds }
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    print("mode=\(baseline ? "baseline" : "player") hours=\(hours) playhead=\(Int(time)) "
        + "tracker_updates=\(CountingTracker.updates) cpu_seconds=\(String(format: "%.3f", cpu))")
    consumer?.cancel()
}

let arguments = CommandLine.arguments.dropFirst()
let hours = arguments.first.flatMap(Double.init) ?? 1
// A run loop drives the main actor rather than an async main: valgrind 3.19 crashes on the async main's
// dispatch_main() here, and the instruction counts need valgrind.
Task { @MainActor in
    await run(hours: hours, baseline: arguments.contains("--baseline"))
    exit(0)
}
RunLoop.main.run()
