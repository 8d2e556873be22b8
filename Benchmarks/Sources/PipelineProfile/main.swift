// Runs the TelemetryPipeline benchmark's loop for a fixed count, for callgrind (which cannot run the benchmark
// harness here): `valgrind --tool=callgrind PipelineProfile 20000`. With `--stages`, also times the pipeline
// without its backend and the line encoding alone (of the same events and metrics), to show where the time goes.
// With `--realistic`, also runs the pipeline on a clock that puts 1.7 s between events, so that its times, counters
// and playheads are numbers of real size (the main loop emits events back to back: most of them are 0); with
// `--rounds N`, that loop runs N times and the median rate is printed with the range (wall-clock rates on a shared
// machine move from run to run).
import Foundation
import PlaytraceBackends
import PlaytraceTelemetry
import TelemetryBenchmarkSupport

let arguments = CommandLine.arguments.dropFirst()
let count = arguments.first.flatMap(Int.init) ?? 100_000
let backend = EncodingBackend()

func run(count: Int, clock: any Clock<Duration> = ContinuousClock(), _ makeBackend: () -> any Backend) -> Double {
    let instrument = Instrument(hub: HubCore(pingInterval: .zero), metricalc: MetricalcCore(), backends: [makeBackend()],
                                clock: clock)
    let tracker = instrument.addTracker(StreamTracker())
    instrument.ready()
    let started = Date()
    for index in 0..<count { instrument.emit(sessionCycle[index % sessionCycle.count], tracker: tracker) }
    let seconds = Date().timeIntervalSince(started)
    instrument.shutdown()
    return seconds
}

let seconds = run(count: count) { backend }
if ProcessInfo.processInfo.environment["PLAYTRACE_SAMPLE"] != nil { print(backend.sample) }
print("events=\(count) seconds=\(String(format: "%.3f", seconds)) events_per_second=\(Int(Double(count) / seconds))"
    + " lines=\(backend.lines) bytes_per_event=\(backend.bytes / max(count, 1))")

if arguments.contains("--stages") {
    /// Keeps what the pipeline hands to backends.
    final class Collecting: Backend {
        var events: [Event] = []
        var metrics: [Metric] = []
        func sendEvent(_ event: Event) { events.append(event) }
        func sendMetric(_ metric: Metric) { metrics.append(metric) }
    }
    /// Drops it.
    final class Dropping: Backend {
        func sendEvent(_ event: Event) {}
        func sendMetric(_ metric: Metric) {}
    }
    let withoutBackend = run(count: count) { Dropping() }
    let collected = Collecting()
    _ = run(count: sessionCycle.count * 100) { collected }
    let encoder = LineProtocolEncoder()
    var buffer: [UInt8] = { var bytes: [UInt8] = []; bytes.reserveCapacity(1 << 21); return bytes }()
    let rounds = max(1, count / collected.events.count)
    let started = Date()
    for _ in 0..<rounds {
        for event in collected.events { encoder.encode(event, timestamp: 1_800_000_000_000_000_000, into: &buffer) }
        for metric in collected.metrics { encoder.encode(metric, timestamp: 1_800_000_000_000_000_000, into: &buffer) }
        buffer.removeAll(keepingCapacity: true)
    }
    let encoding = Date().timeIntervalSince(started)
    let encoded = rounds * collected.events.count
    print("stages: instrument+tracker+hub+metricalc alone \(Int(Double(count) / withoutBackend)) events/s; "
        + "line encoding alone \(Int(Double(encoded) / encoding)) events/s (with their metrics)")
}

if arguments.contains("--realistic") {
    let rounds = arguments.firstIndex(of: "--rounds").map(arguments.index(after:))
        .flatMap { $0 < arguments.endIndex ? Int(arguments[$0]) : nil }.map { max(1, $0) } ?? 1
    var rates: [Int] = []
    var bytes = 0
    for _ in 0..<rounds {
        let spaced = EncodingBackend()
        let seconds = run(count: count, clock: SteppingClock(step: .milliseconds(1_700))) { spaced }
        if ProcessInfo.processInfo.environment["PLAYTRACE_SAMPLE"] != nil { print(spaced.sample) }
        rates.append(Int(Double(count) / seconds))
        bytes = spaced.bytes
    }
    let sorted = rates.sorted()
    let spread = rounds > 1 ? " (median of \(rounds) rounds: \(sorted.first!) to \(sorted.last!))" : ""
    print("realistic values (events 1.7 s apart): events_per_second=\(sorted[sorted.count / 2])\(spread)"
        + " bytes_per_event=\(bytes / max(count, 1))")
}
