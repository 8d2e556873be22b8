public import Foundation
public import PlaytraceNetwork
public import PlaytraceTelemetry
import PlaytraceCore

/// Sends events to New Relic's Event API and metrics to its Metric API: JSON, gzip-compressed, with the `Api-Key`
/// header, in batches under the APIs' 1 MB payload limit, through the `Outbox`.
///
/// - Events: `[{"eventType": "PlaytraceEvent", "timestamp": <ms>, "action": "Start", …attributes}]` to
///   `https://insights-collector.newrelic.com/v1/accounts/<account>/events` (EU:
///   `insights-collector.eu01.nr-data.net`). Attribute values are cut at 4,096 characters, and events keep at
///   most 255 attributes.
/// - Metrics: `[{"metrics": [{"name": "playtrace.StartTime", "type": "gauge", "value": 640, "timestamp": <ms>,
///   "attributes": {…}}]}]` to `https://metric-api.newrelic.com/metric/v1` (EU: `metric-api.eu.newrelic.com`);
///   counters are `count` and histograms `summary`, both with `interval.ms`.
public final class NewRelicBackend: Backend, Sendable {
    public enum Region: String, Sendable, Hashable {
        case us
        case eu
    }

    public struct Configuration: Sendable {
        /// The account events are inserted into.
        public var accountID: String
        /// A license or insert key.
        public var apiKey: String
        public var region: Region = .us
        /// The event type of events.
        public var eventType = "PlaytraceEvent"
        /// Put before metric names.
        public var metricPrefix = "playtrace."
        /// Where events go (the region's Event API unless set).
        public var eventsURL: URL?
        /// Where metrics go (the region's Metric API unless set).
        public var metricsURL: URL?
        /// Batches stay below this many bytes before compression (the APIs accept 10^6 bytes per request).
        public var maximumPayloadBytes = 900_000
        public var flushInterval: Duration = .seconds(10)

        public init(accountID: String, apiKey: String, region: Region = .us) {
            self.accountID = accountID
            self.apiKey = apiKey
            self.region = region
        }

        var resolvedEventsURL: URL? {
            eventsURL ?? URL(string: region == .eu
                ? "https://insights-collector.eu01.nr-data.net/v1/accounts/\(accountID)/events"
                : "https://insights-collector.newrelic.com/v1/accounts/\(accountID)/events")
        }

        var resolvedMetricsURL: URL? {
            metricsURL ?? URL(string: region == .eu ? "https://metric-api.eu.newrelic.com/metric/v1"
                                                    : "https://metric-api.newrelic.com/metric/v1")
        }
    }

    /// The destination name of New Relic messages in the outbox.
    public static let destination = "newrelic"

    /// The courier that delivers this backend's batches (register it with the outbox), with the key of
    /// `configuration` (`nil`: none, for batches an earlier run left; they then wait for a run that has it).
    public static func courier(transport: any HTTPTransport, configuration: Configuration? = nil) -> HTTPCourier {
        courier(transport: transport, apiKey: configuration?.apiKey)
    }

    /// The courier, with the key its batches are sent with.
    public static func courier(transport: any HTTPTransport, apiKey: String?) -> HTTPCourier {
        HTTPCourier(name: destination, transport: transport, credentials: apiKey.map { [("Api-Key", $0)] } ?? [],
                    missingCredentials: "a New Relic key (--newrelic-key or NEW_RELIC_LICENSE_KEY)")
    }

    public let configuration: Configuration
    private let events: Batcher
    private let metrics: Batcher

    public init(configuration: Configuration, outbox: Outbox) {
        self.configuration = configuration
        func deliverer(url: URL?, prefix: String, suffix: String) -> @Sendable ([UInt8]) -> Void {
            let metadata = ["url": url?.absoluteString ?? "", "method": "POST",
                            "header.Content-Type": "application/json",
                            // The key is the courier's, attached at delivery: never stored with a batch.
                            OutboxCredentials.metadataKey: OutboxCredentials.required]
            return { bytes in
                outbox.submit(destination: Self.destination, metadata: metadata, compressing: true) {
                    Array(prefix.utf8) + bytes + Array(suffix.utf8)
                }
            }
        }
        let limit = configuration.maximumPayloadBytes
        events = Batcher(maximumBytes: limit - 64, maximumRecords: 10_000,
                         deliver: deliverer(url: configuration.resolvedEventsURL, prefix: "[", suffix: "]"))
        metrics = Batcher(maximumBytes: limit - 64, maximumRecords: 10_000,
                          deliver: deliverer(url: configuration.resolvedMetricsURL, prefix: "[{\"metrics\":[", suffix: "]}]"))
    }

    public func instrumentReady(_ instrument: Instrument) {
        events.startTimer(interval: configuration.flushInterval, clock: instrument.clock)
        metrics.startTimer(interval: configuration.flushInterval, clock: instrument.clock)
    }

    public func endOfService() {
        events.stopTimer()
        metrics.stopTimer()
        flush()
    }

    /// Hands the batches being built to the outbox now.
    public func flush() {
        events.flush()
        metrics.flush()
    }

    public func sendEvent(_ event: Event) {
        let json = NewRelicJSON.event(event, eventType: configuration.eventType)
        events.append { buffer, _ in
            if !buffer.isEmpty { buffer.append(UInt8(ascii: ",")) }
            buffer.append(contentsOf: json.utf8)
        }
    }

    public func sendMetric(_ metric: Metric) {
        let json = NewRelicJSON.metric(metric, prefix: configuration.metricPrefix)
        metrics.append { buffer, _ in
            if !buffer.isEmpty { buffer.append(UInt8(ascii: ",")) }
            buffer.append(contentsOf: json.utf8)
        }
    }
}

/// New Relic's JSON for events and metric data points.
enum NewRelicJSON {
    static let maximumValueLength = 4_096
    static let maximumEventAttributes = 255

    static func event(_ event: Event, eventType: String) -> String {
        var text = "{\"eventType\":"
        JSONWriter.appendString(eventType, to: &text)
        text += ",\"timestamp\":\(milliseconds(event.date)),\"action\":"
        JSONWriter.appendString(event.action.name, to: &text)
        var count = 3
        for entry in event.allAttributes where count < maximumEventAttributes {
            count += 1
            text += ","
            JSONWriter.appendString(entry.attribute.name, to: &text)
            text += ":"
            append(entry.value, to: &text)
        }
        return text + "}"
    }

    static func metric(_ metric: Metric, prefix: String) -> String {
        var text = "{\"name\":"
        JSONWriter.appendString(prefix + metric.name, to: &text)
        let value = metric.value.isFinite ? metric.value : 0
        switch metric.kind {
        case .gauge:
            text += ",\"type\":\"gauge\",\"value\":\(value)"
        case .counter:
            text += ",\"type\":\"count\",\"value\":\(value),\"interval.ms\":1"
        case .histogram:
            text += ",\"type\":\"summary\",\"value\":{\"count\":1,\"sum\":\(value),\"min\":\(value),\"max\":\(value)},\"interval.ms\":1"
        }
        text += ",\"timestamp\":\(milliseconds(metric.date)),\"attributes\":{"
        var first = true
        for entry in metric.dimensions {
            if !first { text += "," }
            first = false
            JSONWriter.appendString(entry.attribute.name, to: &text)
            text += ":"
            append(entry.value, to: &text)
        }
        return text + "}}"
    }

    private static func append(_ value: AttributeValue, to text: inout String) {
        switch value {
        case .int(let value): text += String(value)
        case .double(let value): text += value.isFinite ? "\(value)" : "null"
        case .bool(let value): text += value ? "true" : "false"
        case .string(let value): JSONWriter.appendString(String(value.prefix(maximumValueLength)), to: &text)
        }
    }

    private static func milliseconds(_ date: StreamDate) -> Int64 {
        let value = (date.secondsSince1970 * 1_000).rounded()
        return value.isFinite && abs(value) < 9e15 ? Int64(value) : 0
    }
}
