public import CoreMetrics
public import PlaytraceTelemetry

/// Hands metrics to swift-metrics, so that whatever metrics backend the app bootstrapped (Prometheus, StatsD,
/// OpenTelemetry…) gets them: counters to `Counter` (whole amounts) or `FloatingPointCounter`, gauges to `Gauge`,
/// histograms to an aggregating `Recorder`; the dimensions become swift-metrics dimensions. Events are counted in
/// `<prefix>events`, by action.
///
/// ```swift
/// MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
/// let instrument = Instrument(hub: HubCore(), metricalc: MetricalcCore(), backends: [SwiftMetricsBackend()])
/// ```
public final class SwiftMetricsBackend: Backend, Sendable {
    /// Put before every label (`playtrace_StartTime`).
    public let labelPrefix: String
    private let factory: any MetricsFactory

    /// - Parameter factory: where metrics go (the bootstrapped `MetricsSystem` by default).
    public init(labelPrefix: String = "playtrace_", factory: any MetricsFactory = MetricsSystem.factory) {
        self.labelPrefix = labelPrefix
        self.factory = factory
    }

    public func sendEvent(_ event: Event) {
        Counter(label: labelPrefix + "events", dimensions: [("action", event.action.name)], factory: factory).increment()
    }

    public func sendMetric(_ metric: Metric) {
        let label = labelPrefix + metric.name
        let dimensions = metric.dimensions.map { ($0.attribute.name, $0.value.description) }
        let value = metric.value
        guard value.isFinite else { return }
        switch metric.kind {
        case .counter:
            if value >= 0, value.rounded() == value, value < 9e18 {
                Counter(label: label, dimensions: dimensions, factory: factory).increment(by: Int64(value))
            } else if value >= 0 {
                FloatingPointCounter(label: label, dimensions: dimensions, factory: factory).increment(by: value)
            }
        case .gauge:
            Gauge(label: label, dimensions: dimensions, factory: factory).record(value)
        case .histogram:
            Recorder(label: label, dimensions: dimensions, aggregate: true, factory: factory).record(value)
        }
    }
}
