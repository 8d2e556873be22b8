import PlaytraceCore
import PlaytracePlayer

/// What was played, as the engine reported it, contiguous reports merged (at most ``limit`` spans, the oldest half
/// dropped past it): told again to the scheduler when the metadata's timeline turns out to be another than assumed,
/// and read by the audit.
struct PlayedSpans: Sendable {
    /// A stretch played without a break: one engine report, or several that follow each other.
    struct Span: Sendable {
        var progress: PlaybackProgress
        /// When the playhead reached its end, on the session's stopwatch.
        var end: Duration
    }

    private(set) var spans: [Span] = []
    /// The most spans kept.
    let limit = 4_096
    /// How far apart two reports' instants may be for the second to continue the first: the scheduler's own
    /// (``BeaconScheduler/continuity``), for the same reason.
    static let continuity = BeaconScheduler.continuity

    /// Takes a report whose end the playhead reached at `instant`: a report that continues the last span (same place
    /// — the primary or one interstitial — same rate, a position and date that follow, no pause between) extends it.
    mutating func remember(_ progress: PlaybackProgress, at instant: Duration) {
        let played = progress.interstitial.map { $0.to - $0.from } ?? (progress.to - progress.from)
        let began = instant - .saturating(milliseconds: played.seconds / progress.rate * 1000)
        guard var last = spans.last, last.progress.interstitial?.event.id == progress.interstitial?.event.id,
              last.progress.rate == progress.rate, began - last.end < Self.continuity, last.end - began < Self.continuity
        else { return append(progress, at: instant) }
        if let interstitial = progress.interstitial {
            guard last.progress.interstitial?.to == interstitial.from else { return append(progress, at: instant) }
            last.progress.interstitial?.to = interstitial.to
        } else {
            guard last.progress.to == progress.from, (last.progress.toDate == nil) == (progress.fromDate == nil),
                  abs((last.progress.toDate?.secondsSince1970 ?? 0) - (progress.fromDate?.secondsSince1970 ?? 0)) < 0.001
            else { return append(progress, at: instant) }
            last.progress.to = progress.to
            last.progress.toDate = progress.toDate
        }
        last.end = instant
        spans[spans.count - 1] = last
    }

    private mutating func append(_ progress: PlaybackProgress, at instant: Duration) {
        spans.append(Span(progress: progress, end: instant))
        if spans.count > limit { spans.removeFirst(limit / 2) }
    }
}
