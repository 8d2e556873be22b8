/// A set of media time, kept as sorted, disjoint ranges: overlapping, nested and touching ranges are merged.
///
/// It is what an engine reports as the time it has played (like HTML media's `played` ranges) and what blocked
/// ranges are flattened into.
///
/// ```swift
/// var played = MediaTimeRangeSet()
/// played.insert(MediaTimeRange(start: 0, end: 10))
/// played.insert(MediaTimeRange(start: 10, end: 12))
/// played.ranges                                         // [0 – 12)
/// played.overlap(with: MediaTimeRange(start: 11, end: 20))   // 1 s
/// ```
public struct MediaTimeRangeSet: Sendable, Hashable, Codable {
    /// The ranges, sorted and disjoint.
    public private(set) var ranges: [MediaTimeRange]

    /// Creates a set from any ranges (empty ones are ignored).
    public init(_ ranges: [MediaTimeRange] = []) {
        var merged: [MediaTimeRange] = []
        for range in ranges.filter({ !$0.isEmpty }).sorted(by: { $0.start < $1.start }) {
            if let last = merged.last, range.start <= last.end {
                merged[merged.count - 1].end = max(last.end, range.end)
            } else {
                merged.append(range)
            }
        }
        self.ranges = merged
    }

    /// Whether the set holds no time.
    public var isEmpty: Bool { ranges.isEmpty }

    /// The total time in the set.
    public var duration: MediaTime { ranges.reduce(.zero) { $0 + $1.duration } }

    /// Adds a range. Appending after the last range (the usual case while playing) costs O(1).
    public mutating func insert(_ range: MediaTimeRange) {
        guard !range.isEmpty else { return }
        if let last = ranges.last, range.start >= last.start {
            if range.start <= last.end {
                ranges[ranges.count - 1].end = max(last.end, range.end)
            } else {
                ranges.append(range)
            }
            return
        }
        self = MediaTimeRangeSet(ranges + [range])
    }

    /// The range that contains a time.
    public func range(containing time: MediaTime) -> MediaTimeRange? {
        ranges.first { $0.contains(time) }
    }

    /// How much of a range the set covers.
    public func overlap(with range: MediaTimeRange) -> MediaTime {
        ranges.reduce(.zero) { total, member in
            let start = max(member.start, range.start)
            let end = min(member.end, range.end)
            return end > start ? total + (end - start) : total
        }
    }
}
