/// Each period's place on the presentation timeline, by the five rules of ISO/IEC 23009-1 5.3.2.1:
/// 1. `@start` present: the period starts there;
/// 2. absent, and the previous period has `@duration`: the previous start plus that duration;
/// 3. absent, first period of a static MPD: 0;
/// 4. absent, in a dynamic MPD, first or after a period without `@duration`: an early available period, not part of
///    the presentation (left out, listed);
/// 5. its end: the next period's start, else its `@duration`, else the presentation's end (mediaPresentationDuration),
///    else open (a live period).
/// Zero-length periods are left out (IOP: clients SHALL ignore them); a start before the previous one is listed.
public struct PeriodTiming: Sendable, Hashable {
    public struct Placed: Sendable, Hashable {
        /// Its index in `MediaPresentation.periods`.
        public var index: Int
        public var start: Duration
        /// `nil`: open (the last period of a live presentation).
        public var end: Duration?
    }

    public let periods: [Placed]
    public let problems: [MPDProblem]

    public init(_ presentation: MediaPresentation) {
        var placed: [Placed] = []
        var problems: [MPDProblem] = []
        var previous: (start: Duration, duration: Duration?)?
        for (index, period) in presentation.periods.enumerated() {
            let start: Duration
            if let written = period.start {
                start = written
            } else if let previous, let duration = previous.duration {
                start = previous.start + duration
            } else if previous == nil, presentation.type == .static {
                start = .zero
            } else {
                problems.append(MPDProblem(line: period.line, presentation.type == .dynamic
                    ? "a period without a start it can be given (an early available period): left out"
                    : "a period without @start after one without @duration: its start cannot be known, left out"))
                previous = nil
                continue
            }
            if let last = placed.last, start < last.start {
                problems.append(MPDProblem(line: period.line, "a period starting before the one above it"))
            }
            placed.append(Placed(index: index, start: start, end: period.duration.map { start + $0 }))
            previous = (start, period.duration)
        }
        // Ends: the next start wins over @duration (Shaka; dash.js takes @duration when the next has no @start).
        for position in placed.indices {
            if position + 1 < placed.count {
                placed[position].end = placed[position + 1].start
            } else if placed[position].end == nil, let total = presentation.mediaPresentationDuration {
                placed[position].end = total
            } else if placed[position].end == nil, presentation.type == .static {
                problems.append(MPDProblem(line: presentation.periods[placed[position].index].line,
                                           "the last period of a static MPD has no end (no @duration, no mediaPresentationDuration)"))
            }
        }
        let kept = placed.filter { placed in
            guard let end = placed.end, end <= placed.start else { return true }
            problems.append(MPDProblem(line: presentation.periods[placed.index].line, "a period of no length: left out"))
            return false
        }
        self.periods = kept
        self.problems = problems
    }
}
