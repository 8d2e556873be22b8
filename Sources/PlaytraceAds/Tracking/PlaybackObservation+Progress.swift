public import PlaytracePlayer

public extension PlaybackObservation {
    /// The observations an engine's progress report makes on an ad timeline (milliseconds), arriving at `instant`.
    ///
    /// On a ``AdTimeline/programDateTime`` timeline the report's stream dates are used; a report without dates
    /// gives nothing (the stream carries none yet). When the dates moved by more than the media time did (a
    /// program-date-time discontinuity inside the movement), the movement is a jump to where the dates say it
    /// began, then the played span up to its end: nothing between the two dates counts as played.
    static func observations(for progress: PlaybackProgress, on timeline: AdTimeline,
                             at instant: Duration) -> [PlaybackObservation] {
        let span = (progress.to.seconds - progress.from.seconds) * 1000
        guard span > 0 else { return [] }
        switch timeline {
        case .mediaTime:
            return [.played(from: progress.from.seconds * 1000, to: progress.to.seconds * 1000, rate: progress.rate, at: instant)]
        case .programDateTime:
            guard let fromDate = progress.fromDate, let toDate = progress.toDate else { return [] }
            let from = fromDate.secondsSince1970 * 1000
            let to = toDate.secondsSince1970 * 1000
            if abs((to - from) - span) <= 1 {
                return [.played(from: from, to: to, rate: progress.rate, at: instant)]
            }
            return [.jumped(from: from, to: to - span, at: instant), .played(from: to - span, to: to, rate: progress.rate, at: instant)]
        }
    }
}
