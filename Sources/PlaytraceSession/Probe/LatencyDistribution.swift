import Histogram

/// A distribution of durations (startup times, beacon lateness) across viewers, in whole milliseconds: an
/// HdrHistogram with three significant digits, so its size is fixed (some tens of kilobytes) whatever it counts.
public struct LatencyDistribution: Sendable {
    private var histogram: Histogram<UInt64>
    /// The largest value told apart from larger ones (an hour): longer ones count as an hour.
    public static let ceiling = Duration.seconds(3_600)

    public init() {
        histogram = Histogram(highestTrackableValue: UInt64(Self.ceiling.seconds * 1_000), numberOfSignificantValueDigits: .three)
    }

    /// Counts one duration (negative ones as zero, longer than ``ceiling`` as it).
    public mutating func record(_ value: Duration) {
        let milliseconds = Swift.min(Swift.max(value.seconds * 1_000, 0), Self.ceiling.seconds * 1_000)
        _ = histogram.record(UInt64(milliseconds.rounded()))
    }

    /// Adds another's counts (a shard's to a probe's).
    public mutating func add(_ other: LatencyDistribution) { histogram.add(other.histogram) }

    public var count: Int { Int(histogram.totalCount) }

    /// The value below which `percentile` percent of the counted ones are (nil when none were counted).
    public func percentile(_ percentile: Double) -> Duration? {
        count > 0 ? .milliseconds(Int64(histogram.valueAtPercentile(percentile))) : nil
    }

    /// The largest counted value, nil when none was.
    public var max: Duration? { count > 0 ? .milliseconds(Int64(histogram.max)) : nil }
}
