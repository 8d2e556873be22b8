// What the telemetry benchmarks share: a tracker that adds what a player tracker adds to each event, and a backend
// that encodes like the InfluxDB backend before it batches.
import PlaytraceBackends
import PlaytraceCore
import PlaytraceTelemetry
import Synchronization

/// Encodes what it receives, like the InfluxDB backend before it sends a batch: under a lock, timestamps made
/// unique, into a buffer handed over at 1 MB.
public final class EncodingBackend: Backend, Sendable {
    private struct State {
        var buffer: [UInt8] = { var bytes: [UInt8] = []; bytes.reserveCapacity(1 << 21); return bytes }()
        var lastTimestamp: Int64 = 0
        var flushedBytes = 0
        var lines = 0
    }

    private let state: Mutex<State>
    /// Never changed: read outside the state, without a copy.
    private let encoder = LineProtocolEncoder()
    /// Line protocol written so far.
    public var bytes: Int { state.withLock { $0.flushedBytes + $0.buffer.count } }
    /// The start of what was written (the buffer not yet flushed).
    public var sample: String { state.withLock { String(decoding: $0.buffer.prefix(4_096), as: UTF8.self) } }
    /// Lines (points) written so far.
    public var lines: Int { state.withLock { $0.lines } }

    public init() {
        state = Mutex(State())
    }

    public func sendEvent(_ event: Event) {
        state.withLock { state in
            let timestamp = Self.next(LineProtocolEncoder.nanoseconds(event.date), &state)
            encoder.encode(event, timestamp: timestamp, into: &state.buffer)
            Self.flushIfFull(&state)
        }
    }

    public func sendMetric(_ metric: Metric) {
        state.withLock { state in
            let timestamp = Self.next(LineProtocolEncoder.nanoseconds(metric.date), &state)
            encoder.encode(metric, timestamp: timestamp, into: &state.buffer)
            Self.flushIfFull(&state)
        }
    }

    public func send(_ event: Event, metrics: [Metric]) {
        // An event's metrics carry its date: converted once.
        let eventNanoseconds = LineProtocolEncoder.nanoseconds(event.date)
        state.withLock { state in
            var last = state.lastTimestamp
            encoder.encode(event, metrics: metrics, into: &state.buffer) { date in
                last = max(date == event.date ? eventNanoseconds : LineProtocolEncoder.nanoseconds(date), last + 1)
                return last
            }
            state.lastTimestamp = last
            state.lines += metrics.count
            Self.flushIfFull(&state)
        }
    }

    private static func next(_ nanoseconds: Int64, _ state: inout State) -> Int64 {
        state.lastTimestamp = max(nanoseconds, state.lastTimestamp + 1)
        return state.lastTimestamp
    }

    private static func flushIfFull(_ state: inout State) {
        state.lines += 1
        guard state.buffer.count > 1 << 20 else { return }
        state.flushedBytes += state.buffer.count
        state.buffer.removeAll(keepingCapacity: true)
    }
}

/// A tracker that adds what a player tracker adds to each event, as ``PlayerTelemetryTracker`` does: the stream,
/// content and session as a context that stays the same from event to event, and the playhead (from the event's
/// time) as the event's own attribute.
public final class StreamTracker: TelemetryTracker, Sendable {
    private let context: AttributeList

    public init() {
        var context = AttributeList()
        context[.duration] = .int(3_600_000)
        context[.bitrate] = .int(3_000_000)
        context[.resolutionHeight] = .int(720)
        context[.resolutionWidth] = .int(1280)
        context[.title] = "The show"
        context[.contentId] = "urn:playtrace:1"
        context[.sessionId] = "5f0c2a52-3c6b-4f0e-9d7e-7a1d2b3c4d5e"
        context[.engine] = "headless"
        context[.platform] = "linux"
        context[.isMuted] = false
        context[.volume] = 100
        self.context = context
    }

    public func initEvent(_ event: inout Event, instrument: Instrument, tracker: TrackerID) -> Bool {
        event.context = context
        event[.position] = .int(Int(event.timeNanoseconds / 1_000_000_000) * 1_000)
        return true
    }
}

/// A playback with its pauses, buffers and heartbeats: the mix of actions of a real session.
public let sessionCycle: [Action] = [.mediaRequest, .streamLoad, .start, .ping, .ping, .pauseBegin, .pauseFinish, .ping,
                                     .bufferBegin, .bufferFinish, .ping, .qualityChangeUp, .ping, .seekBegin,
                                     .seekFinish, .ping, .ping, .end]

/// A clock whose every reading is `step` later than the one before: the pipeline run on it sees events spaced like
/// a real session's (time-since values, accumulated times and playheads of real size, written with more digits)
/// without waiting. Sleeping returns at once.
public final class SteppingClock: Clock, Sendable {
    public struct Instant: InstantProtocol {
        public let offset: Duration
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let step: Int64
    /// Nanoseconds since the clock's start: one atomic add per reading (the clock is read on every event).
    private let current = Atomic<Int64>(0)

    public init(step: Duration) {
        self.step = Int64(step.components.seconds) * 1_000_000_000 + step.components.attoseconds / 1_000_000_000
    }

    public var now: Instant {
        let nanoseconds = current.add(step, ordering: .relaxed).newValue
        return Instant(offset: .nanoseconds(nanoseconds))
    }

    public var minimumResolution: Duration { .nanoseconds(1) }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {}
}
