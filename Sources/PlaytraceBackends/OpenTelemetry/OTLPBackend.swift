public import Foundation
public import Logging
import OTel
public import PlaytraceNetwork
public import PlaytraceTelemetry
import ServiceLifecycle
import PlaytraceCore
import Tracing

/// Exports to any OpenTelemetry pipeline over OTLP/HTTP, through swift-otel: metrics, and playback sessions as
/// traces.
///
/// - **Metrics** go through swift-otel's metrics factory (``SwiftMetricsBackend`` with it): counters stay
///   counters; per-session values (`StartTime`, `StallDuration`, `RebufferingRatio`…) and histograms become
///   exponential histograms, so a collector sees their distribution across sessions. They keep the
///   low-cardinality dimensions (`contentId`, `variant`, `engine`, `platform`, `failureStage` by default): an
///   OpenTelemetry metrics pipeline keeps every series it sees, and per-session detail belongs to traces. Events
///   are counted in `playtrace.events` by action.
/// - **Traces** (see ``PlaybackTraces``): a `playback` span per playback, with child spans for startup, stalls
///   and other buffering, seeks, pauses, ad breaks and ads, timed by the events' dates.
///
/// swift-otel makes its own HTTP requests; Playtrace points them at an `OutboxRelay` on loopback, which stores
/// each export in the `Outbox` before answering: OTLP data gets the same durable, retrying delivery (and the
/// idempotency key) as every other backend, and the collector's credentials stay in the relay.
///
/// ```swift
/// let outbox = try Outbox(path: "telemetry.sqlite", couriers: [OTLPBackend.courier(transport: transport)])
/// let otlp = try await OTLPBackend(configuration: .init(endpoint: URL(string: "http://collector:4318")!),
///                                  outbox: outbox)
/// let instrument = Instrument(hub: HubCore(), metricalc: MetricalcCore(), backends: [otlp])
/// // …
/// instrument.shutdown()
/// await otlp.shutdown()   // exports what is left into the outbox
/// await outbox.flush()
/// ```
///
/// > Note: the standard `OTEL_EXPORTER_OTLP_*ENDPOINT` environment variables override the endpoint swift-otel
/// > sends to, and so bypass the relay; the backend logs a warning when one is set.
public final class OTLPBackend: Backend, Sendable {
    /// What a metric's exported value covers.
    public enum Temporality: String, Sendable, Hashable {
        /// Since the process started (OTLP's default): every series is exported at every interval.
        case cumulative
        /// Since the previous export: what a load test with many short sessions wants.
        case delta
    }

    /// How exports are encoded on the wire.
    public enum Encoding: String, Sendable, Hashable {
        /// `application/x-protobuf`, OTLP's default.
        case protobuf
        /// `application/json` (OTLP's JSON mapping of the protobuf messages; the relay writes trace and span ids
        /// in hex, as OTLP asks, where swift-otel writes base64).
        case json
    }

    public struct Configuration: Sendable {
        /// The collector's OTLP/HTTP base URL (`http://localhost:4318`); `/v1/metrics` and `/v1/traces` are added.
        public var endpoint: URL
        /// Headers sent with every export (`Authorization`, `api-key`…).
        public var headers: [String: String] = [:]
        public var encoding: Encoding = .protobuf
        /// gzip exports (OTLP/HTTP servers accept `Content-Encoding: gzip`).
        public var compress = true
        /// How often metrics are exported.
        public var exportInterval: Duration = .seconds(10)
        public var temporality: Temporality = .cumulative
        /// The resource's `service.name`.
        public var serviceName = "playtrace"
        /// More resource attributes (`deployment.environment`…).
        public var resourceAttributes: [String: String] = [:]
        /// Put before metric names.
        public var metricPrefix = "playtrace."
        /// The dimensions metrics keep.
        public var metricDimensions: Set<Attribute> = [.contentId, .variant, .engine, .platform, .failureStage]
        /// Whether playbacks are exported as traces.
        public var exportsTraces = true

        public init(endpoint: URL) {
            self.endpoint = endpoint
        }
    }

    /// The destination name of OTLP messages in the outbox.
    public static let destination = "otlp"

    /// The courier that delivers this backend's exports (register it with the outbox), with the headers of
    /// `configuration` and the `user:password` of its endpoint (`nil`: none, for exports an earlier run left).
    public static func courier(transport: any HTTPTransport, configuration: Configuration? = nil) -> HTTPCourier {
        courier(transport: transport, headers: configuration?.headers ?? [:], endpoint: configuration?.endpoint)
    }

    /// The courier, with the headers its exports are sent with and the `user:password` of `endpoint`, if any.
    public static func courier(transport: any HTTPTransport, headers: [String: String], endpoint: URL?) -> HTTPCourier {
        var credentials = headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        if let endpoint, let basic = OutboxCredentials.basicAuthorization(from: endpoint) { credentials.append(basic) }
        return HTTPCourier(name: destination, transport: transport, credentials: credentials,
                           missingCredentials: "the OTLP headers (--otlp-header or OTEL_EXPORTER_OTLP_HEADERS) or the "
                               + "user:password of --otlp")
    }

    public let configuration: Configuration
    private let relay: OutboxRelay
    private let metrics: SwiftMetricsBackend
    private let traces: PlaybackTraces?
    private let services: ServiceGroup
    private let running: Locked<Task<Void, Never>?>
    private let logger: Logger

    /// Starts the relay and swift-otel's exporters.
    /// - Throws: when the relay cannot listen or swift-otel refuses the configuration.
    public init(configuration: Configuration, outbox: Outbox,
                logger: Logger = Logger(label: "playtrace.otlp")) async throws {
        self.configuration = configuration
        self.logger = logger
        let transform: (@Sendable (String, [UInt8]) -> [UInt8])?
        if configuration.encoding == .json {
            transform = { _, body in OTLPJSONIdentifiers.hexEncoded(body) }
        } else {
            transform = nil
        }
        var credentialHeaders = configuration.headers
        if let basic = OutboxCredentials.basicAuthorization(from: configuration.endpoint) { credentialHeaders[basic.name] = basic.value }
        relay = OutboxRelay(outbox: outbox, destination: Self.destination, upstream: configuration.endpoint,
                            headers: credentialHeaders, compress: configuration.compress,
                            transform: transform,
                            logger: logger)
        let base = try await relay.start().absoluteString
        Self.warnAboutEnvironmentOverrides(logger: logger)

        var otel = OTel.Configuration.default
        otel.serviceName = configuration.serviceName
        otel.resourceAttributes = configuration.resourceAttributes
        otel.diagnosticLogger = .custom(logger)
        // swift-otel logs the environment's values as it reads them (OTEL_EXPORTER_OTLP_HEADERS holds keys): below
        // debug, only its errors.
        otel.diagnosticLogLevel = logger.logLevel <= .debug ? .debug : .error
        otel.logs.enabled = false
        otel.metrics.exportInterval = configuration.exportInterval
        otel.metrics.temporalityPreference = configuration.temporality == .delta ? .delta : .cumulative
        otel.metrics.defaultHistogramType = .exponential()
        otel.metrics.otlpExporter.endpoint = base + "/v1/metrics"
        otel.metrics.otlpExporter.protocol = configuration.encoding == .json ? .httpJSON : .httpProtobuf
        otel.traces.enabled = configuration.exportsTraces
        otel.traces.otlpExporter.endpoint = base + "/v1/traces"
        otel.traces.otlpExporter.protocol = otel.metrics.otlpExporter.protocol

        let metricsBackend = try OTel.makeMetricsBackend(configuration: otel)
        metrics = SwiftMetricsBackend(labelPrefix: configuration.metricPrefix, factory: metricsBackend.factory,
                                      dimensions: configuration.metricDimensions, gaugesAsDistributions: true)
        var services: [any Service] = [metricsBackend.service]
        if configuration.exportsTraces {
            let tracingBackend = try OTel.makeTracingBackend(configuration: otel)
            traces = PlaybackTraces(tracer: tracingBackend.factory)
            services.append(tracingBackend.service)
        } else {
            traces = nil
        }
        let group = ServiceGroup(services: services, gracefulShutdownSignals: [], cancellationSignals: [],
                                 logger: logger)
        self.services = group
        running = Locked(Task {
            do {
                try await group.run()
            } catch {
                logger.error("the OpenTelemetry exporters stopped", metadata: ["error": "\(error)"])
            }
        })
    }

    deinit {
        // Without `shutdown()`, the exporters stop with the backend (what they still hold is not exported).
        running.withLock { $0?.cancel() }
    }

    private static func warnAboutEnvironmentOverrides(logger: Logger) {
        let environment = ProcessInfo.processInfo.environment
        for name in ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT",
                     "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] where environment[name] != nil {
            logger.warning("\(name) is set: swift-otel sends there directly, without the outbox")
        }
    }

    public func sendEvent(_ event: Event) {
        metrics.sendEvent(event)
        traces?.record(event)
    }

    public func sendMetric(_ metric: Metric) {
        metrics.sendMetric(metric)
    }

    public func endOfService() {
        traces?.endAll()
    }

    /// Ends the spans still open, makes swift-otel export what it holds (into the outbox), stops its exporters and
    /// the relay. Call it after the instrument's `shutdown()` and before the outbox's last `flush()`.
    public func shutdown() async {
        traces?.endAll()
        guard let task = running.withLock({ task in
            defer { task = nil }
            return task
        }) else { return }
        await services.triggerGracefulShutdown()
        await task.value
        await relay.stop()
    }
}
