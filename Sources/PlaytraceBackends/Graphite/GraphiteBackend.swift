public import PlaytraceNetwork
public import PlaytraceTelemetry
import PlaytraceCore

/// Sends metrics, and counts of events, to Graphite (carbon) in its plaintext protocol (`path value seconds`)
/// over TCP, through the `Outbox`.
///
/// - Paths: `<prefix>.<dimension values…>.<metric>`; events are counted in `<prefix>.<dimension values…>.events.
///   <Action>`. Which dimensions, in which order, is ``Configuration/pathDimensions`` (engine and content by
///   default); characters Graphite treats specially become `_`.
/// - Graphite keeps one value per path and second, so values of one second are combined before they are sent:
///   counters are summed, gauges and histograms keep the last value. A second is sent once it is over (a later
///   second was seen), so that a counter never overwrites itself across batches; the end of service sends all.
public final class GraphiteBackend: Backend, Sendable {
    public struct Configuration: Sendable {
        /// The first path component.
        public var prefix = "playtrace"
        /// The dimensions that make up the path, in order (`unknown` when an event or metric lacks one).
        public var pathDimensions: [Attribute] = [.engine, .contentId]
        /// How often complete seconds are handed to the outbox.
        public var flushInterval: Duration = .seconds(10)

        public init() {}
    }

    /// The destination name of Graphite messages in the outbox.
    public static let destination = "graphite"

    /// The courier that delivers this backend's lines (register it with the outbox).
    public static func courier(host: String, port: Int = 2003) -> TCPCourier {
        TCPCourier(name: destination, host: host, port: port)
    }

    private struct Key: Hashable {
        let path: String
        let second: Int64
    }

    private struct Aggregation {
        var counters: [Key: Double] = [:]
        var values: [Key: Double] = [:]
        var latestSecond: Int64 = .min
    }

    public let configuration: Configuration
    private let outbox: Outbox
    private let state = Locked(Aggregation())
    private let timer = FlushTimer()

    public init(configuration: Configuration = Configuration(), outbox: Outbox) {
        self.configuration = configuration
        self.outbox = outbox
    }

    public func instrumentReady(_ instrument: Instrument) {
        timer.start(interval: configuration.flushInterval, clock: instrument.clock) { [weak self] in
            self?.flush(includingLatestSecond: false)
        }
    }

    public func endOfService() {
        timer.stop()
        flush(includingLatestSecond: true)
    }

    public func sendEvent(_ event: Event) {
        let key = Key(path: path(for: "events." + Self.sanitize(event.action.name), dimensions: event.allAttributes),
                      second: Self.second(event.date))
        state.withLock { state in
            state.counters[key, default: 0] += 1
            state.latestSecond = max(state.latestSecond, key.second)
        }
    }

    public func sendMetric(_ metric: Metric) {
        guard metric.value.isFinite else { return }
        let key = Key(path: path(for: Self.sanitize(metric.name), dimensions: metric.dimensions),
                      second: Self.second(metric.date))
        state.withLock { state in
            switch metric.kind {
            case .counter: state.counters[key, default: 0] += metric.value
            case .gauge, .histogram: state.values[key] = metric.value
            }
            state.latestSecond = max(state.latestSecond, key.second)
        }
    }

    /// Hands the complete seconds (or everything) to the outbox.
    public func flush(includingLatestSecond: Bool = true) {
        let lines: [UInt8] = state.withLock { state in
            let cutoff = includingLatestSecond ? Int64.max : state.latestSecond
            var text = ""
            for (key, value) in state.counters where key.second < cutoff {
                text += "\(key.path) \(Self.format(value)) \(key.second)\n"
                state.counters[key] = nil
            }
            for (key, value) in state.values where key.second < cutoff {
                text += "\(key.path) \(Self.format(value)) \(key.second)\n"
                state.values[key] = nil
            }
            return Array(text.utf8)
        }
        guard !lines.isEmpty else { return }
        outbox.submit(destination: Self.destination) { lines }
    }

    private func path(for leaf: String, dimensions: AttributeList) -> String {
        var components = [Self.sanitize(configuration.prefix)]
        for attribute in configuration.pathDimensions {
            components.append(dimensions[attribute].map { Self.sanitize($0.description) } ?? "unknown")
        }
        components.append(leaf)
        return components.joined(separator: ".")
    }

    /// A path component: letters, digits, `-` and `_` kept, anything else (dots, spaces, slashes) as `_`.
    public static func sanitize(_ text: String) -> String {
        let cleaned = String(text.unicodeScalars.map { scalar -> Character in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_": Character(scalar)
            default: "_"
            }
        })
        return cleaned.isEmpty ? "unknown" : cleaned
    }

    private static func second(_ date: StreamDate) -> Int64 {
        let seconds = date.secondsSince1970.rounded(.down)
        return seconds.isFinite && abs(seconds) < 9e15 ? Int64(seconds) : 0
    }

    private static func format(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }
}
