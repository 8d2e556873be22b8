public import PlaytracePlayer

public extension PlaybackObservation {
    /// The observations an engine's progress report makes on an ad timeline (milliseconds), arriving at `instant`.
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
            func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
            return [.played(from: rounded(base + interstitial.from.seconds * 1000),
                            to: rounded(base + interstitial.to.seconds * 1000), rate: progress.rate, at: instant)]
        }
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

public extension PlaybackObservation {
    /// Where an interstitial begins on an ad timeline (milliseconds): where its date falls in the primary on a
    /// media-time timeline (before any `X-SNAP`), its date on a program-date-time one (`nil` when it has none).
    static func position(of interstitial: InterstitialEvent, on timeline: AdTimeline) -> Double? {
        switch timeline {
        case .mediaTime: interstitial.datePosition.seconds * 1000
        case .programDateTime: interstitial.startDate.map(\.millisecondsSince1970)
        }
    }
}
