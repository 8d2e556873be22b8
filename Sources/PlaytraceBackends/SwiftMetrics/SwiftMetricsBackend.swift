public import CoreMetrics
public import PlaytraceTelemetry

/// Hands metrics to swift-metrics, so that whatever metrics backend the app bootstrapped (Prometheus, StatsD,
/// OpenTelemetry…) gets them: counters to `Counter` (whole amounts) or `FloatingPointCounter`, gauges to `Gauge`
/// (or, with `gaugesAsDistributions`, to an aggregating `Recorder`), histograms to an aggregating `Recorder`; the
/// dimensions become swift-metrics dimensions. Events are counted in `<prefix>events`, by action.
///
/// Metricalc's per-session values (`StartTime`, `WatchedTime`…) are gauges keyed by the session's dimensions. A
/// metrics system that keeps every series it saw (Prometheus, OpenTelemetry) is better served by leaving the
/// session, playback and stream ids out (`dimensions`) and recording those values as distributions across
/// sessions (`gaugesAsDistributions`): the per-session detail then belongs to events or traces.
///
/// ```swift
/// MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
/// let instrument = Instrument(hub: HubCore(), metricalc: MetricalcCore(), backends: [SwiftMetricsBackend()])
/// ```
public final class SwiftMetricsBackend: Backend, Sendable {
    /// Put before every label (`playtrace_StartTime`).
    public let labelPrefix: String
    /// The dimensions kept (all of a metric's when `nil`).
    public let dimensions: Set<Attribute>?
    /// Whether gauges are recorded as distributions (an aggregating `Recorder`) instead of last values.
    public let gaugesAsDistributions: Bool
    private let factory: any MetricsFactory

    /// - Parameters:
    ///   - labelPrefix: put before every metric's label.
    ///   - factory: where metrics go (the bootstrapped `MetricsSystem` by default).
    ///   - dimensions: the dimensions to keep, on metrics and on the events counter; `nil` keeps a metric's all
    ///     and counts events by action only.
    ///   - gaugesAsDistributions: record gauges with an aggregating `Recorder`.
    public init(labelPrefix: String = "playtrace_", factory: any MetricsFactory = MetricsSystem.factory,
                dimensions: Set<Attribute>? = nil, gaugesAsDistributions: Bool = false) {
        self.labelPrefix = labelPrefix
        self.factory = factory
        self.dimensions = dimensions
        self.gaugesAsDistributions = gaugesAsDistributions
    }

    private func labels(_ attributes: AttributeList, keepingAll: Bool) -> [(String, String)] {
        var labels: [(String, String)] = []
        for entry in attributes where dimensions.map({ $0.contains(entry.attribute) }) ?? keepingAll {
            labels.append((entry.attribute.name, entry.value.description))
        }
        return labels
    }

    public func sendEvent(_ event: Event) {
        let dimensions = [("action", event.action.name)] + labels(event.allAttributes, keepingAll: false)
        Counter(label: labelPrefix + "events", dimensions: dimensions, factory: factory).increment()
    }

    public func sendMetric(_ metric: Metric) {
        let label = labelPrefix + metric.name
        let dimensions = labels(metric.dimensions, keepingAll: true)
        let value = metric.value
        guard value.isFinite else { return }
        switch metric.kind {
        case .counter:
            if value >= 0, value.rounded() == value, value < 9e18 {
                Counter(label: label, dimensions: dimensions, factory: factory).increment(by: Int64(value))
            } else if value >= 0 {
                FloatingPointCounter(label: label, dimensions: dimensions, factory: factory).increment(by: value)
            }
        case .gauge where gaugesAsDistributions:
            Recorder(label: label, dimensions: dimensions, aggregate: true, factory: factory).record(value)
        case .gauge:
            Gauge(label: label, dimensions: dimensions, factory: factory).record(value)
        case .histogram:
            Recorder(label: label, dimensions: dimensions, aggregate: true, factory: factory).record(value)
        }
    }
}
