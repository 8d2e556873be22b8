// What the telemetry benchmarks share: a tracker that adds what a player tracker adds to each event, and a backend
// that encodes like the InfluxDB backend before it batches.
import PlaytraceBackends
import PlaytraceCore
import PlaytraceTelemetry

/// Encodes what it receives, like the InfluxDB backend before it sends a batch.
public final class EncodingBackend: Backend {
    private let encoder = LineProtocolEncoder()
    private var buffer: [UInt8] = []
    private var lastTimestamp: Int64 = 0
    private var flushedBytes = 0
    /// Line protocol written so far.
    public var bytes: Int { flushedBytes + buffer.count }
    /// The start of what was written (the buffer not yet flushed).
    public var sample: String { String(decoding: buffer.prefix(4_096), as: UTF8.self) }
    /// Lines (points) written so far.
    public private(set) var lines = 0

    public init() { buffer.reserveCapacity(1 << 20) }

    public func sendEvent(_ event: Event) {
        encoder.encode(event, timestamp: next(event.date), into: &buffer)
        flushIfFull()
    }

    public func sendMetric(_ metric: Metric) {
        encoder.encode(metric, timestamp: next(metric.date), into: &buffer)
        flushIfFull()
    }

    private func next(_ date: StreamDate) -> Int64 {
        lastTimestamp = max(LineProtocolEncoder.nanoseconds(date), lastTimestamp + 1)
        return lastTimestamp
    }

    private func flushIfFull() {
        lines += 1
        guard buffer.count > 1 << 20 else { return }
        flushedBytes += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }
}

/// A tracker that adds what a player tracker adds to each event (playhead from the event's time).
public final class StreamTracker: TelemetryTracker, Sendable {
    public init() {}

    public func initEvent(_ event: inout Event, instrument: Instrument, tracker: TrackerID) -> Bool {
        event[.position] = .int(Int(event.time.components.seconds) * 1_000)
        event[.duration] = .int(3_600_000)
        event[.bitrate] = .int(3_000_000)
        event[.resolutionHeight] = .int(720)
        event[.resolutionWidth] = .int(1280)
        event[.title] = "The show"
        event[.contentId] = "urn:playtrace:1"
        event[.sessionId] = "5f0c2a52-3c6b-4f0e-9d7e-7a1d2b3c4d5e"
        event[.engine] = "headless"
        event[.platform] = "linux"
        event[.isMuted] = false
        event[.volume] = 100
        return true
    }
}

/// A playback with its pauses, buffers and heartbeats: the mix of actions of a real session.
public let sessionCycle: [Action] = [.mediaRequest, .streamLoad, .start, .ping, .ping, .pauseBegin, .pauseFinish, .ping,
                                     .bufferBegin, .bufferFinish, .ping, .qualityChangeUp, .ping, .seekBegin,
                                     .seekFinish, .ping, .ping, .end]
