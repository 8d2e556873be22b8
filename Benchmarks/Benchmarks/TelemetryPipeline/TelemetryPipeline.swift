// Events per second through the whole telemetry pipeline on one core: instrument → tracker → HubCore →
// MetricalcCore → a backend that encodes every event and metric in InfluxDB's line protocol (what the InfluxDB
// backend does before batching). OpenAVT's core measures about 160k events/s on this machine (REFERENCE §2).
import Benchmark
import PlaytraceBackends
import PlaytraceCore
import PlaytraceTelemetry

/// Encodes what it receives, like the InfluxDB backend before it sends a batch.
final class EncodingBackend: Backend {
    private let encoder = LineProtocolEncoder()
    private var buffer: [UInt8] = []
    private var lastTimestamp: Int64 = 0
    private(set) var bytes = 0

    init() { buffer.reserveCapacity(1 << 20) }

    func sendEvent(_ event: Event) { encoder.encode(event, timestamp: next(event.date), into: &buffer); flushIfFull() }
    func sendMetric(_ metric: Metric) { encoder.encode(metric, timestamp: next(metric.date), into: &buffer); flushIfFull() }

    private func next(_ date: StreamDate) -> Int64 {
        lastTimestamp = max(LineProtocolEncoder.nanoseconds(date), lastTimestamp + 1)
        return lastTimestamp
    }

    private func flushIfFull() {
        guard buffer.count > 1 << 20 else { return }
        bytes += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }
}

/// A tracker that adds what a player tracker adds to each event.
final class StreamTracker: TelemetryTracker, Sendable {
    func initEvent(_ event: inout Event, instrument: Instrument, tracker: TrackerID) -> Bool {
        event[.position] = .int(123_456)
        event[.duration] = .int(3_600_000)
        event[.bitrate] = .int(3_000_000)
        event[.resolutionHeight] = .int(720)
        event[.resolutionWidth] = .int(1280)
        event[.title] = "The show"
        event[.contentId] = "urn:playtrace:1"
        event[.sessionId] = "5f0c2a52-3c6b-4f0e-9d7e-7a1d2b3c4d5e"
        event[.engine] = "headless"
        event[.platform] = "linux"
        return true
    }
}

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
        // A playback with its pauses, buffers and heartbeats: the mix of a real session.
        let cycle: [Action] = [.mediaRequest, .streamLoad, .start, .ping, .ping, .pauseBegin, .pauseFinish, .ping,
                               .bufferBegin, .bufferFinish, .ping, .qualityChangeUp, .ping, .seekBegin, .seekFinish,
                               .ping, .ping, .end]
        var index = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            instrument.emit(cycle[index], tracker: tracker)
            index = index == cycle.count - 1 ? 0 : index + 1
        }
        benchmark.stopMeasurement()
    }
}
