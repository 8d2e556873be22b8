public import Foundation
public import PlaytraceNetwork
public import PlaytraceTelemetry

/// Sends events and metrics to InfluxDB in line protocol: batched by size and by time, gzip-compressed, delivered
/// through the `Outbox` (persisted, retried on 5xx and network errors; a 4xx refuses that batch only, logged with
/// the server's message).
///
/// Durability: a batch closes every ``Configuration/flushInterval``, at its size bounds, and at a Start, Error,
/// End, Stop or Next; the Outbox's background task compresses and stores it within its `storeInterval` (250 ms by
/// default). The thread that emitted the event only encodes it and queues the closed batch. A process killed with
/// `kill -9` loses the batch still open and those closed in the last `storeInterval`; what is stored is delivered
/// by the next run.
///
/// ```swift
/// let outbox = try Outbox(path: path, couriers: [InfluxDBBackend.courier(transport: transport)])
/// let influx = InfluxDBBackend(configuration: .init(url: URL(string: "http://127.0.0.1:8086")!,
///                                                   api: .v1(database: "playtrace")), outbox: outbox)
/// let instrument = Instrument(hub: HubCore(), metricalc: MetricalcCore(), backends: [influx])
/// ```
public final class InfluxDBBackend: Backend, Sendable {
    /// Where and how to write.
    public struct Configuration: Sendable {
        /// The write API.
        public enum API: Sendable, Hashable {
            /// InfluxDB 1.x: `POST /write?db=`, with optional credentials.
            case v1(database: String, username: String? = nil, password: String? = nil)
            /// InfluxDB 2.x and 3.x (and 1.8+'s compatibility endpoint): `POST /api/v2/write?org=&bucket=` with
            /// `Authorization: Token`.
            case v2(organization: String, bucket: String, token: String)
        }

        /// The server's base URL (`http://host:8086`).
        public var url: URL
        public var api: API
        /// Whether bodies are gzip-compressed.
        public var gzip = true
        /// A batch is sent when it reaches this many bytes…
        public var maximumBatchBytes = 512 << 10
        /// …or this many points…
        public var maximumBatchPoints = 5_000
        /// …or when this much time has passed.
        public var flushInterval: Duration = .seconds(5)
        public var encoder = LineProtocolEncoder()

        public init(url: URL, api: API) {
            self.url = url
            self.api = api
        }

        /// The write URL, with nanosecond precision.
        public var writeURL: URL? {
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            let basePath = components?.path.hasSuffix("/") == true ? String(components?.path.dropLast() ?? "") : components?.path ?? ""
            switch api {
            case .v1(let database, _, _):
                // The credentials go in a header (``credentialHeaders``), never in the URL the outbox stores.
                components?.path = basePath + "/write"
                components?.queryItems = [URLQueryItem(name: "db", value: database), URLQueryItem(name: "precision", value: "ns")]
            case .v2(let organization, let bucket, _):
                components?.path = basePath + "/api/v2/write"
                components?.queryItems = [URLQueryItem(name: "org", value: organization),
                                          URLQueryItem(name: "bucket", value: bucket),
                                          URLQueryItem(name: "precision", value: "ns")]
            }
            components?.user = nil
            components?.password = nil
            return components?.url
        }

        /// The headers that authenticate with the server, sent by the courier and never stored with a batch: the
        /// v2 token, or HTTP Basic from the v1 username and password or from the URL's `user:password@`.
        public var credentialHeaders: [(name: String, value: String)] {
            switch api {
            case .v2(_, _, let token):
                return [("Authorization", "Token \(token)")]
            case .v1(_, let username?, let password):
                let pair = username + ":" + (password ?? "")
                return [("Authorization", "Basic " + Data(pair.utf8).base64EncodedString())]
            case .v1:
                return OutboxCredentials.basicAuthorization(from: url).map { [$0] } ?? []
            }
        }
    }

    /// The destination name of InfluxDB messages in the outbox.
    public static let destination = "influxdb"

    /// The courier that delivers this backend's batches (register it with the outbox), with the credentials of
    /// `configuration` (`nil`: none, for batches an earlier run left; those that need credentials then wait).
    public static func courier(transport: any HTTPTransport, configuration: Configuration? = nil) -> HTTPCourier {
        courier(transport: transport, credentials: configuration?.credentialHeaders ?? [])
    }

    /// The courier, with the headers that authenticate (``Configuration/credentialHeaders``).
    public static func courier(transport: any HTTPTransport, credentials: [(name: String, value: String)]) -> HTTPCourier {
        HTTPCourier(name: destination, transport: transport, splitter: HTTPCourier.lineSplitter, credentials: credentials,
                    missingCredentials: "an InfluxDB token (--influx-token or INFLUX_TOKEN) or the user:password of --influx")
    }

    public let configuration: Configuration
    private let batcher: Batcher
    private let encoder: LineProtocolEncoder

    public init(configuration: Configuration, outbox: Outbox) {
        self.configuration = configuration
        encoder = configuration.encoder
        let metadata = Self.metadata(configuration)
        let gzip = configuration.gzip
        // Compression and the SQLite write happen on the outbox's background task, never on the thread that
        // emitted the event that closed the batch.
        batcher = Batcher(maximumBytes: configuration.maximumBatchBytes,
                          maximumRecords: configuration.maximumBatchPoints) { bytes in
            outbox.submit(destination: Self.destination, metadata: metadata, compressing: gzip) { bytes }
        }
    }

    private static func metadata(_ configuration: Configuration) -> [String: String] {
        var metadata = ["url": configuration.writeURL?.absoluteString ?? "", "method": "POST",
                        "header.Content-Type": "text/plain; charset=utf-8"]
        if !configuration.credentialHeaders.isEmpty { metadata[OutboxCredentials.metadataKey] = OutboxCredentials.required }
        return metadata
    }

    public func instrumentReady(_ instrument: Instrument) {
        batcher.startTimer(interval: configuration.flushInterval, clock: instrument.clock)
    }

    public func endOfService() {
        batcher.stopTimer()
        batcher.flush()
    }

    public func sendEvent(_ event: Event) {
        send(event, metrics: [])
    }

    public func sendMetric(_ metric: Metric) {
        batcher.append { buffer, stamp in
            encoder.encode(metric, timestamp: stamp(LineProtocolEncoder.nanoseconds(metric.date)), into: &buffer)
        }
    }

    public func send(_ event: Event, metrics: [Metric]) {
        batcher.append(records: metrics.count + 1) { buffer, stamp in
            encoder.encode(event, metrics: metrics, into: &buffer) { stamp(LineProtocolEncoder.nanoseconds($0)) }
        }
    }

    /// Hands the batch being built to the outbox now (at the end of a session).
    public func flush() {
        batcher.flush()
    }
}
