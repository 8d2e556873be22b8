// Events per second through the whole telemetry pipeline on one core: instrument → tracker → HubCore →
// MetricalcCore → a backend that encodes every event and metric in InfluxDB's line protocol (what the InfluxDB
// backend does before batching). OpenAVT's core measures about 160k events/s on this machine (REFERENCE §2).
import Benchmark
import PlaytraceBackends
import PlaytraceCore
import PlaytraceTelemetry
import TelemetryBenchmarkSupport

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        scalingFactor: .kilo,
        maxDuration: .seconds(5),
        maxIterations: 10_000)

    Benchmark("events through instrument, hub, metricalc and line encoding") { benchmark in
        let instrument = Instrument(hub: HubCore(pingInterval: .zero), metricalc: MetricalcCore(),
                                    backends: [EncodingBackend()])
        let tracker = instrument.addTracker(StreamTracker())
        instrument.ready()
        let cycle = sessionCycle
        var index = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            instrument.emit(cycle[index], tracker: tracker)
            index = index == cycle.count - 1 ? 0 : index + 1
        }
        benchmark.stopMeasurement()
    }
}
