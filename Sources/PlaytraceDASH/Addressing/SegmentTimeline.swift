/// A `SegmentTimeline`: its `S` elements as written, and the segments they describe as runs, never expanded one by
/// one (an `S` with `r="100000000"` is one run).
///
/// Times are in the timescale's ticks on the media timeline (with the presentation time offset, as `$Time$`
/// writes them). Resolution follows ISO/IEC 23009-1 and the players' common ground:
/// - `S@t` absent: the segment starts where the previous one ended (the first at 0);
/// - `r ≥ 0`: r + 1 segments of `d`; `r < 0`: repeated up to the next `S@t`, else the end of the period when it is
///   known, else without end (a live period: ``Run/count`` is `nil`, and a caller bounds it by the availability
///   window);
/// - an `S@t` that leaves a gap after the previous run, or overlaps it, moves the end of the previous run's last
///   segment to it (as Shaka does), listed as a problem;
/// - an `S` without `d`, or with `d ≤ 0`, is skipped, listed.
///
/// Every sum is checked: a run whose end would pass `Int64.max` ends there, listed.
public struct SegmentTimeline: Sendable, Hashable {
    /// One `S` element as written.
    public struct Entry: Sendable, Hashable {
        public var time: Int64?
        public var duration: Int64?
        public var repeatCount: Int64
        /// Where it was written (for problems).
        public var line: Int

        public init(time: Int64? = nil, duration: Int64?, repeatCount: Int64 = 0, line: Int = 0) {
            self.time = time
            self.duration = duration
            self.repeatCount = repeatCount
            self.line = line
        }
    }

    /// Consecutive segments of one duration.
    public struct Run: Sendable, Hashable {
        /// The first segment's start (ticks).
        public var start: Int64
        public var duration: Int64
        /// How many; `nil`: without end.
        public var count: Int64?
        /// The index of its first segment in the timeline (0 for the first `S`), for `$Number$` = start number + index.
        public var firstIndex: Int64

        /// The start of its segment `offset` (0-based), if that does not overflow.
        func start(of offset: Int64) -> Int64? {
            let (span, overflowA) = duration.multipliedReportingOverflow(by: offset)
            let (sum, overflowB) = start.addingReportingOverflow(span)
            return overflowA || overflowB ? nil : sum
        }

        /// Where it ends (`nil` without end, or past `Int64.max`).
        var end: Int64? { count.flatMap { start(of: $0) } }
    }

    /// A segment the timeline describes.
    public struct Segment: Sendable, Hashable {
        public var index: Int64
        public var start: Int64
        public var duration: Int64

        public init(index: Int64, start: Int64, duration: Int64) {
            self.index = index
            self.start = start
            self.duration = duration
        }
    }

    public let entries: [Entry]
    public let runs: [Run]
    /// What was read differently from what was written, with its line.
    public let problems: [MPDProblem]

    /// Resolves `S` elements into runs.
    /// - Parameters:
    ///   - entries: the `S` elements, in the document's order.
    ///   - end: the period's end on this timeline (ticks, offset included), when known: where a last `r < 0` stops,
    ///     and past which no segment is listed.
    public init(entries: [Entry], end: Int64? = nil) {
        self.entries = entries
        var runs: [Run] = []
        var problems: [MPDProblem] = []
        var next: Int64 = 0   // where the previous run ended
        var index: Int64 = 0
        var open = false
        for (position, entry) in entries.enumerated() {
            guard !open else {
                problems.append(MPDProblem(line: entry.line, "an S after one repeated without end is ignored"))
                continue
            }
            guard let duration = entry.duration else {
                problems.append(MPDProblem(line: entry.line, "an S without @d is skipped"))
                continue
            }
            guard duration > 0 else {
                problems.append(MPDProblem(line: entry.line, "an S with @d=\(duration) is skipped"))
                continue
            }
            let start = entry.time ?? next
            // A gap or an overlap with the previous run: its last segment ends where this one starts.
            if let time = entry.time, let last = runs.last, last.end != time {
                Self.meet(&runs, at: time, line: entry.line, problems: &problems)
                index = runs.last.map { Self.saturatingSum($0.firstIndex, $0.count ?? 0) } ?? 0
            }
            var count: Int64?
            if entry.repeatCount >= 0 {
                let (sum, overflow) = entry.repeatCount.addingReportingOverflow(1)
                count = overflow ? Int64.max : sum
            } else {
                // Up to the next S@t, else the period's end, else without end.
                let following = entries[(position + 1)...].first { $0.duration != nil && ($0.duration ?? 0) > 0 }
                if let limit = following?.time {
                    // Whole segments up to the next S@t, and a shorter last one when they do not fit exactly.
                    let span = limit > start ? limit - start : 0
                    let whole = span / duration
                    if whole > 0 { runs.append(Run(start: start, duration: duration, count: whole, firstIndex: index)) }
                    if span % duration > 0 {
                        runs.append(Run(start: start + whole * duration, duration: span % duration, count: 1,
                                        firstIndex: Self.saturatingSum(index, whole)))
                    }
                    index = Self.saturatingSum(index, whole + (span % duration > 0 ? 1 : 0))
                    next = limit
                    continue
                } else if following == nil, let limit = end {
                    count = limit > start ? Self.ceilingDivide(limit - start, by: duration) : 0
                } else if following != nil {
                    problems.append(MPDProblem(line: entry.line, "an S with a negative @r is followed by one without @t: the rest is ignored"))
                    count = 1
                    open = true
                } else {
                    count = nil
                    open = true
                }
            }
            if let end, let counted = count, counted > 0 {
                // Nothing past the period's end.
                let allowed = start >= end ? 0 : Self.ceilingDivide(end - start, by: duration)
                if counted > allowed {
                    problems.append(MPDProblem(line: entry.line, "\(counted - allowed) segment(s) past the period's end are left out"))
                    count = allowed
                }
            }
            if count == 0 { continue }
            var run = Run(start: start, duration: duration, count: count, firstIndex: index)
            if let counted = count, run.start(of: counted) == nil {
                // The run's end passes Int64.max: it ends at the last segment that ends within it.
                let fitting = (Int64.max - start) / duration
                problems.append(MPDProblem(line: entry.line, "a run past the largest time is cut to \(fitting) segment(s)"))
                guard fitting > 0 else { continue }
                run.count = fitting
            }
            runs.append(run)
            if let counted = run.count {
                index = Self.saturatingSum(index, counted)
                next = run.end ?? Int64.max
            }
        }
        self.runs = runs
        self.problems = problems
    }

    /// The number of segments (`nil` when the last run has no end).
    public var segmentCount: Int64? {
        guard let last = runs.last else { return 0 }
        return last.count.map { last.firstIndex + $0 }
    }

    /// The segment at `index` (0-based), or `nil` past the end. Logarithmic in the runs.
    public func segment(at index: Int64) -> Segment? {
        guard index >= 0, let run = run(containingIndex: index) else { return nil }
        let offset = index - run.firstIndex
        guard let start = run.start(of: offset) else { return nil }
        return Segment(index: index, start: start, duration: run.duration)
    }

    /// The segment whose span holds `time` (ticks), or `nil` before the first or after the last. Logarithmic.
    public func segment(containing time: Int64) -> Segment? {
        // The last run starting at or before `time`.
        var low = 0, high = runs.count
        while low < high {
            let middle = (low + high) / 2
            if runs[middle].start <= time { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let run = runs[low - 1]
        let offset = (time - run.start) / run.duration
        if let count = run.count, offset >= count { return nil }
        return segment(at: run.firstIndex + offset)
    }

    private func run(containingIndex index: Int64) -> Run? {
        var low = 0, high = runs.count
        while low < high {
            let middle = (low + high) / 2
            if runs[middle].firstIndex <= index { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let run = runs[low - 1]
        if let count = run.count, index - run.firstIndex >= count { return nil }
        return run
    }

    /// Moves the end of the last run's last segment to `time`: splits the run, and drops what `time` overlaps
    /// (whole runs too, when `time` is before them).
    private static func meet(_ runs: inout [Run], at time: Int64, line: Int, problems: inout [MPDProblem]) {
        if let end = runs.last?.end {
            problems.append(MPDProblem(line: line, time > end
                ? "a gap of \(time - end) ticks before S@t=\(time): the previous segment is stretched over it"
                : "S@t=\(time) overlaps the segments before it: they are shortened or left out"))
        }
        while let last = runs.last, let count = last.count {
            runs.removeLast()
            guard time > last.start else { continue }
            // The segments that start before `time`; the last of them ends at `time`.
            let kept = min(count, ceilingDivide(time - last.start, by: last.duration))
            if kept > 1 {
                runs.append(Run(start: last.start, duration: last.duration, count: kept - 1, firstIndex: last.firstIndex))
            }
            guard let lastStart = last.start(of: kept - 1) else { return }
            runs.append(Run(start: lastStart, duration: time - lastStart, count: 1, firstIndex: last.firstIndex + kept - 1))
            return
        }
    }

    static func saturatingSum(_ a: Int64, _ b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int64.max : sum
    }

    static func ceilingDivide(_ value: Int64, by divisor: Int64) -> Int64 {
        value / divisor + (value % divisor > 0 ? 1 : 0)
    }
}
