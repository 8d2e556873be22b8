public import PlaytraceCore

/// Which segments a client may request at one wall-clock time (DASH-IF IOP timing model): in a live presentation,
/// those whose *end* lies in [now − `timeShiftBufferDepth`, now + `availabilityTimeOffset`], times counted from
/// `MPD@availabilityStartTime`; in an on-demand one, all of them.
///
/// ```swift
/// let window = AvailabilityWindow(presentation, at: StreamDate(Date()))
/// if let range = window.available(in: representation.segments) {
///     let newest = representation.segments.segment(at: range.upperBound)
/// }
/// ```
///
/// The range is found in constant or logarithmic time, whatever the window's depth: a week of DVR at one-second
/// segments is two numbers, and a segment is computed when asked.
public struct AvailabilityWindow: Sendable, Hashable {
    /// The earliest end a segment may have (MPD time); `nil`: no bound (on demand, or no `timeShiftBufferDepth`).
    public var earliestEnd: Duration?
    /// The latest end a segment may have (MPD time); `nil`: no bound (on demand, or `availabilityTimeOffset="INF"`).
    public var latestEnd: Duration?

    public init(earliestEnd: Duration?, latestEnd: Duration?) {
        self.earliestEnd = earliestEnd
        self.latestEnd = latestEnd
    }

    /// The window of `presentation` at `now` (the wall clock, synchronised with the server's), for segments with
    /// `availabilityTimeOffset` seconds of early availability. An on-demand presentation, or a live one without
    /// `availabilityStartTime`, is available whole.
    public init(_ presentation: ResolvedPresentation, at now: StreamDate, availabilityTimeOffset: Double = 0) {
        guard presentation.type == .dynamic, let start = presentation.availabilityStartTime else {
            self.init(earliestEnd: nil, latestEnd: nil)
            return
        }
        let elapsed = Duration.seconds(now.secondsSince1970 - start.secondsSince1970)
        let earliest = presentation.written.timeShiftBufferDepth.map { elapsed - $0 }
        let latest: Duration? = availabilityTimeOffset.isFinite ? elapsed + .seconds(availabilityTimeOffset) : nil
        self.init(earliestEnd: earliest, latestEnd: latest)
    }

    /// The indices of `index`'s available segments, or `nil` when none is.
    public func available(in index: SegmentIndex) -> ClosedRange<Int64>? {
        var first: Int64 = 0
        if let earliestEnd {
            guard let found = index.index(containing: earliestEnd) else { return nil }
            first = found
            if let segment = index.segment(at: first), segment.end < earliestEnd { first += 1 }
            // A segment ending exactly at the window's start is still in it.
            if first > 0, let previous = index.segment(at: first - 1), previous.end >= earliestEnd { first -= 1 }
        }
        var last: Int64
        if let latestEnd, let found = index.index(containing: latestEnd) {
            last = found
            if let segment = index.segment(at: last), segment.end > latestEnd { last -= 1 }
        } else if let count = index.count {
            // No bound, or one past the period's last segment.
            last = count - 1
        } else {
            return nil
        }
        guard first <= last, index.segment(at: first) != nil else { return nil }
        return first...last
    }
}
