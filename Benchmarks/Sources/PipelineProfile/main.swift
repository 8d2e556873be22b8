// Runs the TelemetryPipeline benchmark's loop for a fixed count, for callgrind (which cannot run the benchmark
// harness here): `valgrind --tool=callgrind PipelineProfile 20000`.
import Foundation
import PlaytraceTelemetry
import TelemetryBenchmarkSupport

let count = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 100_000
let backend = EncodingBackend()
let instrument = Instrument(hub: HubCore(pingInterval: .zero), metricalc: MetricalcCore(), backends: [backend])
let tracker = instrument.addTracker(StreamTracker())
instrument.ready()
let started = Date()
for index in 0..<count { instrument.emit(sessionCycle[index % sessionCycle.count], tracker: tracker) }
let seconds = Date().timeIntervalSince(started)
instrument.shutdown()
if ProcessInfo.processInfo.environment["PLAYTRACE_SAMPLE"] != nil { print(backend.sample) }
print("events=\(count) seconds=\(String(format: "%.3f", seconds)) events_per_second=\(Int(Double(count) / seconds))"
    + " lines=\(backend.lines) bytes_per_event=\(backend.bytes / max(count, 1))")
