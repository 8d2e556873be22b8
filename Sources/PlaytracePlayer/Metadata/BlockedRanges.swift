public import PlaytraceCore

/// An item's blocked ranges, flattened: sorted, with overlapping, nested and touching ranges merged.
///
/// It answers the questions the player asks to never play blocked content:
/// - where to start when the start position is blocked (the end of its range);
/// - where a seek lands when its target is blocked (the end of the range when seeking forward, just before its
///   start when seeking backward — what a user dragging back expects, where Pillarbox lands at the end);
/// - when the next blocked range begins, so that playback can leave it *before* any of it plays rather than
///   noticing afterwards.
///
/// ```swift
/// let blocked = BlockedRanges([MediaTimeRange(start: 10, end: 20), MediaTimeRange(start: 15, end: 30)])
/// blocked.ranges                        // [10 – 30)
/// blocked.seekTarget(from: 5, to: 12)   // 30
/// blocked.seekTarget(from: 40, to: 12)  // just before 10
/// ```
public struct BlockedRanges: Sendable, Hashable {
    /// How far before a blocked range a backward seek lands.
    public static let backwardMargin = MediaTime(seconds: 0.001)

    /// The flattened ranges, in order.
    public var ranges: [MediaTimeRange] { rangeSet.ranges }

    /// The flattened ranges as a set.
    public let rangeSet: MediaTimeRangeSet

    /// Flattens ranges (empty ones are ignored).
    public init(_ ranges: [MediaTimeRange]) {
        rangeSet = MediaTimeRangeSet(ranges)
    }

    /// No blocked range.
    public static let none = BlockedRanges([])

    /// Whether there is no blocked range.
    public var isEmpty: Bool { ranges.isEmpty }

    /// The blocked range that contains a time.
    public func range(containing time: MediaTime) -> MediaTimeRange? {
        rangeSet.range(containing: time)
    }

    /// Where playback starts when asked to start at `position`: past the blocked range containing it.
    public func startPosition(_ position: MediaTime) -> MediaTime {
        range(containing: position)?.end ?? position
    }

    /// Where a seek from `current` towards `target` lands.
    public func seekTarget(from current: MediaTime, to target: MediaTime) -> MediaTime {
        guard let range = range(containing: target) else { return target }
        if (target < current) && (range.start > .zero) {
            return max(.zero, range.start - Self.backwardMargin)
        }
        return range.end
    }

    /// The first blocked range that starts at or after `time` (the next one playback will reach).
    public func next(after time: MediaTime) -> MediaTimeRange? {
        ranges.first { $0.start >= time }
    }

    /// Whether a range ends at or after the end of an item of `duration`: leaving it means ending the item.
    public func coversEnd(of duration: MediaTime) -> Bool {
        ranges.last.map { $0.end >= duration } ?? false
    }
}
