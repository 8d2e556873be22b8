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

import Foundation

// Runs the TelemetryPipeline benchmark's loop for a fixed count, for callgrind (which cannot run the benchmark
// harness here): `valgrind --tool=callgrind PipelineProfile 100000`.
let count = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 100_000
let instrument = Instrument(hub: HubCore(pingInterval: .zero), metricalc: MetricalcCore(), backends: [EncodingBackend()])
let tracker = instrument.addTracker(StreamTracker())
instrument.ready()
let cycle: [Action] = [.mediaRequest, .streamLoad, .start, .ping, .ping, .pauseBegin, .pauseFinish, .ping,
                       .bufferBegin, .bufferFinish, .ping, .qualityChangeUp, .ping, .seekBegin, .seekFinish,
                       .ping, .ping, .end]
let started = Date()
for index in 0..<count { instrument.emit(cycle[index % cycle.count], tracker: tracker) }
let seconds = Date().timeIntervalSince(started)
print("events=\(count) seconds=\(String(format: "%.3f", seconds)) events_per_second=\(Int(Double(count) / seconds))")
