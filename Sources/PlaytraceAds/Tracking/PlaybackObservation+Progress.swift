public import PlaytracePlayer

public extension PlaybackObservation {
    /// The observations an engine's progress report makes on an ad timeline, arriving at `instant`.
    ///
    /// On a ``AdTimeline/programDateTime`` timeline the report's stream dates are used; a report without dates
    /// gives nothing (the stream carries none yet). When the dates moved by more than the media time did (a
    /// program-date-time discontinuity inside the movement), the movement is a jump to where the dates say it
    /// began, then the played span up to its end: nothing between the two dates counts as played.
    ///
    /// While an interstitial plays, the position is the interstitial's place on the ad timeline (its start, or its
    /// date on a program-date-time timeline) plus the interstitial time (`InterstitialStatus.time`), rounded to
    /// the microsecond so that an ad that ends with the interstitial is seen to reach its end.
    static func observations(for progress: PlaybackProgress, on timeline: AdTimeline,
                             at instant: Duration) -> [PlaybackObservation] {
        if let interstitial = progress.interstitial {
            guard interstitial.to > interstitial.from, let base = position(of: interstitial.event, on: timeline) else { return [] }
            // To the microsecond.
            func rounded(_ value: AdTime) -> AdTime { AdTime(milliseconds: (value.milliseconds * 1000).rounded() / 1000) }
            return [.played(from: rounded(base + AdTime(interstitial.from)), to: rounded(base + AdTime(interstitial.to)),
                            rate: progress.rate, at: instant)]
        }
        let span = AdTime(progress.to - progress.from)
        guard span > .zero else { return [] }
        switch timeline {
        case .mediaTime:
            return [.played(from: AdTime(progress.from), to: AdTime(progress.to), rate: progress.rate, at: instant)]
        case .programDateTime:
            guard let fromDate = progress.fromDate, let toDate = progress.toDate else { return [] }
            let from = AdTime(fromDate)
            let to = AdTime(toDate)
            if (to - from).distance(to: span) <= AdTime(milliseconds: 1) {
                return [.played(from: from, to: to, rate: progress.rate, at: instant)]
            }
            return [.jumped(from: from, to: to - span, at: instant), .played(from: to - span, to: to, rate: progress.rate, at: instant)]
        }
    }
}

public extension PlaybackObservation {
    /// Where an interstitial begins on an ad timeline: where its date falls in the primary on a
    /// media-time timeline (before any `X-SNAP`), its date on a program-date-time one (`nil` when it has none).
    static func position(of interstitial: InterstitialEvent, on timeline: AdTimeline) -> AdTime? {
        switch timeline {
        case .mediaTime: AdTime(interstitial.datePosition)
        case .programDateTime: interstitial.startDate.map(AdTime.init)
        }
    }
}
