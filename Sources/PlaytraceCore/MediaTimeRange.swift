/// A half-open range of media time, `start ..< end`.
///
/// Used for loaded and seekable ranges, chapters, blocked ranges and ad breaks on an item's timeline.
///
/// ```swift
/// let seekable = MediaTimeRange(start: 0, end: 120)
/// seekable.clamp(MediaTime(seconds: 130))   // 00:02:00.000
/// ```
public struct MediaTimeRange: Sendable, Hashable, Codable {
    /// The first instant of the range.
    public var start: MediaTime
    /// The instant just after the range.
    public var end: MediaTime

    /// Creates a range; an `end` before `start` gives an empty range at `start`.
    public init(start: MediaTime, end: MediaTime) {
        self.start = start
        self.end = max(start, end)
    }

    /// Creates a range from its start and its length.
    public init(start: MediaTime, duration: MediaTime) {
        self.init(start: start, end: start + duration)
    }

    /// An empty range at zero.
    public static let empty = MediaTimeRange(start: .zero, end: .zero)

    /// The length of the range.
    public var duration: MediaTime { end - start }

    /// Whether the range has no length.
    public var isEmpty: Bool { end <= start }

    /// Whether `time` lies in `start ..< end`.
    public func contains(_ time: MediaTime) -> Bool { time >= start && time < end }

    /// `time` moved into `start ... end`.
    public func clamp(_ time: MediaTime) -> MediaTime { min(max(time, start), end) }

    /// Whether the two ranges share some time.
    public func overlaps(_ other: MediaTimeRange) -> Bool { start < other.end && other.start < end }
}

extension MediaTimeRange: CustomStringConvertible {
    public var description: String { "[\(start) – \(end))" }
}
