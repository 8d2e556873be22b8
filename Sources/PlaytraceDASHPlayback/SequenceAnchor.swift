import PlaytraceCore

/// Keeps a track's HLS media sequence numbers steady across MPD refreshes, which DASH does not number: the newest
/// segment of the last playlist made is remembered with its number, and the next playlist is numbered from it, as
/// Shaka keeps the segments it knows and appends only those that end later.
///
/// DASH's own numbers cannot serve: `$Number$` restarts in each period, and a timeline addressed by `$Time$` may keep
/// `startNumber` while its window slides. Times can: a segment keeps its MPD time across refreshes.
struct SequenceAnchor: Sendable, Hashable {
    var period: String
    /// The segment's start (MPD time).
    var start: Duration
    var sequence: Int

    /// One segment a playlist lists: its period, its index in that period's reference representation, its start.
    struct Listed {
        var period: String
        var index: Int64
        var start: Duration
    }

    /// The number of the first of `listed` (in order), so that the anchor's segment keeps its number:
    /// - listed: its position's offset from it;
    /// - before them (the window slid on): one past it, plus the segments between when they are of the same period
    ///   (`indexInPeriod` finds the anchor's index in the current MPD), as HLS numbers segments missed between
    ///   refreshes;
    /// - after them: the listed segments that start before it are numbered down from it.
    func firstSequence(of listed: [Listed], indexInPeriod: (SequenceAnchor) -> Int64?) -> Int {
        guard let first = listed.first else { return sequence }
        let position = Self.firstPosition(in: listed, startingAtOrAfter: start)
        if position < listed.count, listed[position].start == start, listed[position].period == period {
            return sequence.addingSaturating(-position)
        }
        if position == 0 {
            var missing: Int64 = 0
            if first.period == period, let index = indexInPeriod(self), index < first.index - 1 {
                missing = first.index - index - 1
            }
            return sequence.addingSaturating(1).addingSaturating(Int(clamping: missing))
        }
        return sequence.addingSaturating(1).addingSaturating(-position)
    }

    /// The first position in `listed` whose start is at or after `time`: a binary search.
    static func firstPosition(in listed: [Listed], startingAtOrAfter time: Duration) -> Int {
        var low = 0
        var high = listed.count
        while low < high {
            let middle = (low + high) / 2
            if listed[middle].start < time { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
