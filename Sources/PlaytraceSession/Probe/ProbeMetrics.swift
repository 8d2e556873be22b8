public import Prometheus
import PlaytraceCore
import Synchronization

/// A probe's aggregate as Prometheus metrics (`playtrace probe --metrics-port`): counters, gauges and two histograms
/// in the `playtrace_probe_` namespace, every series labelled with the shard (`shard="I"`), so that the PromQL
/// `sum without (shard, instance) (…)` of N shards is one probe's figure.
///
/// The counters follow the aggregate: ``update(_:)`` (every second, and once at the end) advances each by what the
/// aggregate gained since, so their totals are the summary's. The histograms take what the aggregate's distributions
/// take: each startup as its first frame shows (``record(startup:)``), each viewer's beacon lateness as it ends
/// (``record(lateness:)``). Viewers' playback figures count when each viewer ends, as the aggregate's do; requests
/// count as they finish.
///
/// ```swift
/// let metrics = ProbeMetrics(shard: ProbePopulation.Shard(index: 0, count: 1))
/// metrics.record(startup: .milliseconds(120))
/// metrics.update(progress)
/// let text = String(decoding: metrics.exposition(), as: UTF8.self) // Prometheus' text format
/// ```
public final class ProbeMetrics: Sendable {
    /// The registry the exposition is made from.
    public let registry = PrometheusCollectorRegistry()
    private let shard: String
    private let startup: DurationHistogram
    private let lateness: DurationHistogram
    /// Each counter's value as last advanced, by its name and labels.
    private let advanced = Mutex<[String: Double]>([:])

    /// The histograms' buckets (upper bounds).
    public static let startupBuckets: [Duration] = [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 30].map { .saturating(seconds: $0) }
    public static let latenessBuckets: [Duration] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10]
        .map { .saturating(seconds: $0) }

    public init(shard: ProbePopulation.Shard) {
        self.shard = String(shard.index)
        startup = registry.makeDurationHistogram(
            descriptor: Self.name("startup", unit: "seconds", help: "Startup time of each viewer: from the media request to the first frame."),
            labels: [("shard", self.shard)], buckets: Self.startupBuckets)
        lateness = registry.makeDurationHistogram(
            descriptor: Self.name("beacon_lateness", unit: "seconds",
                                  help: "Delivery lateness of each ad beacon: from the playhead's crossing to the response."),
            labels: [("shard", self.shard)], buckets: Self.latenessBuckets)
    }

    /// Counts a viewer's startup, as its first frame shows.
    public func record(startup value: Duration) { startup.record(value) }

    /// Counts the delivery lateness of a viewer's beacons (as ``ProbeAggregate`` folded them in at its end).
    public func record(lateness values: [Duration]) {
        for value in values { lateness.record(value) }
    }

    /// Brings the counters and gauges to the probe as known now.
    public func update(_ progress: ProbeProgress) {
        let aggregate = progress.aggregate
        gauge("viewers_planned", "Viewers this shard is to run.", aggregate.planned)
        gauge("viewers_active", "Viewers playing now.", aggregate.active)
        gauge("ended", "1 once the probe has ended and its figures are final.", progress.isEnded ? 1 : 0)
        for (state, count) in [("started", aggregate.started), ("ended", aggregate.ended), ("failed", aggregate.failed),
                               ("failed_to_start", aggregate.failedToStart), ("never_started", aggregate.neverStarted)] {
            advance("viewers_\(state)", "Viewers that \(state.replacingOccurrences(of: "_", with: " ")).", to: Double(count))
        }
        for (kind, count) in aggregate.shortfalls {
            advance("viewer_shortfalls", "Viewers that fell short, by the verdict's kind.", [("kind", kind)], to: Double(count))
        }
        advance("played_seconds", "Media time played, all viewers together.", to: aggregate.playedSeconds)
        advance("stalls", "Stalls, all viewers together.", to: Double(aggregate.stallCount))
        advance("stalled_seconds", "Time stalled, all viewers together.", to: aggregate.stallSeconds)
        advance("variant_switches", "Variant switches, all viewers together.", to: Double(aggregate.variantSwitches))
        for (bandwidth, seconds) in aggregate.variantSeconds {
            advance("variant_played_seconds", "Media time played at each variant, by its peak bandwidth (bits per second).",
                    [("bandwidth", String(bandwidth))], to: seconds)
        }
        let beacons = aggregate.beacons
        for (state, count) in [("expected", beacons.expected), ("fired", beacons.fired), ("delivered", beacons.delivered),
                               ("failed", beacons.failed), ("waiting", beacons.waiting), ("late", beacons.late),
                               ("missed", beacons.missed), ("duplicated", beacons.duplicated),
                               ("unexpected", beacons.unexpected)] {
            advance("beacons", "Ad beacons by state, as each viewer's verdict counts them.", [("state", state)],
                    to: Double(count))
        }
        for (kind, counts) in progress.requests {
            for (outcome, count) in counts.outcomes {
                advance("requests", "Requests by kind and outcome (2xx, 3xx, an error status, the transport's failure).",
                        [("kind", kind.rawValue), ("outcome", outcome)], to: Double(count))
            }
            advance("response_bytes", "Response body bytes by request kind.", [("kind", kind.rawValue)], to: Double(counts.bytes))
        }
    }

    /// The exposition: Prometheus' text format.
    public func exposition() -> [UInt8] { registry.emitToBuffer() }

    private static func name(_ name: String, unit: String, help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "playtrace", subsystem: "probe", metricName: name, unitName: unit, helpText: help)
    }

    private func gauge(_ name: String, _ help: String, _ value: Int) {
        registry.makeGauge(descriptor: Self.name(name, unit: "", help: help),
                           labels: [("shard", shard)]).set(to: Double(value))
    }

    /// Advances a counter (`…_total`) to `value`: by what it gained since the last call; never back.
    private func advance(_ name: String, _ help: String, _ labels: [(String, String)] = [], to value: Double) {
        let labels = [("shard", shard)] + labels
        let key = name + labels.map { "," + $0.0 + "=" + $0.1 }.joined()
        let gain = advanced.withLock { advanced -> Double in
            let gain = value - advanced[key, default: 0]
            if gain > 0 { advanced[key] = value }
            return gain
        }
        let counter = registry.makeCounter(descriptor: Self.name(name, unit: "total", help: help), labels: labels)
        if gain > 0 { counter.increment(by: gain) }
    }
}
