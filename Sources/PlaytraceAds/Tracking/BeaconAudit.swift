public import PlaytracePlayer

/// What a session's beacons should have been, from what the engine says was played — the yardstick a summary
/// measures the fired beacons against, independent of the scheduler's own record.
public enum BeaconAudit {
    /// The automatic events the played media called for: those whose time a played range reached past its start,
    /// and the impression and start (and breakStart) of every ad (and break) a played range overlaps.
    /// - Parameters:
    ///   - pods: the breaks, on an ad timeline.
    ///   - played: the played ranges on the same timeline, in order.
    ///   - interstitials: what was played of each interstitial, on the same timeline, by its ID.
    ///   - scopes: the interstitial each break belongs to (``AdBeaconingSession/interstitialOfPod``): only what was
    ///     played of that interstitial counts for it, and only the primary's played ranges for the others.
    ///   - fastForwarded: the parts of `played` passed only faster than the scheduler fires
    ///     (``BeaconScheduler/playbackRates``): they call for nothing, as a seek's jump does not.
    ///   - fastForwardedInterstitials: the same for each interstitial, by its ID.
    public static func expectedEvents(in pods: [AdPod], played: [ClosedRange<AdTime>],
                                      interstitials: [String: [ClosedRange<AdTime>]] = [:],
                                      scopes: [String: String] = [:],
                                      fastForwarded: [ClosedRange<AdTime>] = [],
                                      fastForwardedInterstitials: [String: [ClosedRange<AdTime>]] = [:])
        -> Set<TrackingEventKey> {
        let primary = subtracting(fastForwarded, from: played)
        var keys: Set<TrackingEventKey> = []
        for pod in pods {
            let played = scopes[pod.id].map { subtracting(fastForwardedInterstitials[$0] ?? [], from: interstitials[$0] ?? []) }
                ?? primary
            func expected(_ event: TrackingEvent, start: AdTime, end: AdTime) -> Bool {
                guard event.event.kind == .automatic else { return false }
                let time = event.startTime
                if played.contains(where: { $0.lowerBound < time && time <= $0.upperBound }) { return true }
                return event.event.firesOnEntry && played.contains { $0.lowerBound < end && start < $0.upperBound }
            }
            for event in pod.trackingEvents where expected(event, start: pod.startTime, end: pod.endTime) { keys.insert(event.id) }
            for ad in pod.ads {
                for event in ad.trackingEvents where expected(event, start: ad.startTime, end: ad.endTime) { keys.insert(event.id) }
            }
        }
        return keys
    }

    /// The parts of `ranges` that none of `removed` covers, in order; pieces shorter than a millisecond (the rounding
    /// between two ways of placing the same movement on the timeline) are dropped. Linear after sorting.
    public static func subtracting(_ removed: [ClosedRange<AdTime>],
                                   from ranges: [ClosedRange<AdTime>]) -> [ClosedRange<AdTime>] {
        guard !removed.isEmpty else { return ranges }
        let cuts = merged(removed)
        var result: [ClosedRange<AdTime>] = []
        var cut = 0
        for range in merged(ranges) {
            var start = range.lowerBound
            while cut < cuts.count, cuts[cut].upperBound <= start { cut += 1 }
            var index = cut
            while index < cuts.count, cuts[index].lowerBound < range.upperBound {
                if cuts[index].lowerBound - start >= 1 { result.append(start...cuts[index].lowerBound) }
                start = max(start, cuts[index].upperBound)
                index += 1
            }
            if range.upperBound - start >= 1 { result.append(start...range.upperBound) }
        }
        return result
    }

    /// The ranges sorted, overlapping and touching ones joined.
    static func merged(_ ranges: [ClosedRange<AdTime>]) -> [ClosedRange<AdTime>] {
        var result: [ClosedRange<AdTime>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, range.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }

    /// An engine's played ranges on an ad timeline: media time as it is, or the stream dates at the
    /// ranges' ends for a ``AdTimeline/programDateTime`` timeline (from the date at the playhead; empty when the
    /// stream has none).
    public static func playedIntervals(of snapshot: EngineSnapshot, on timeline: AdTimeline) -> [ClosedRange<AdTime>] {
        let offset: AdTime
        switch timeline {
        case .mediaTime: offset = .zero
        case .programDateTime:
            guard let date = snapshot.streamDate else { return [] }
            // Rounded to the microsecond: a date of 1.7e9 s carries a rounding error of some 0.2 µs, enough to put
            // a playback that began exactly on an ad's boundary a hair before it, inside the ad before.
            offset = AdTime(milliseconds: ((AdTime(date) - AdTime(snapshot.playhead)).milliseconds * 1_000).rounded() / 1_000)
        }
        return snapshot.playedRanges.ranges.map { (AdTime($0.start) + offset)...(AdTime($0.end) + offset) }
    }

    /// What was played of each interstitial, on an ad timeline: its place there
    /// (``PlaybackObservation/position(of:on:)``) plus the interstitial time played, by its ID.
    public static func playedInterstitialIntervals(of snapshot: EngineSnapshot,
                                                   on timeline: AdTimeline) -> [String: [ClosedRange<AdTime>]] {
        var intervals: [String: [ClosedRange<AdTime>]] = [:]
        for event in snapshot.interstitials {
            guard let ranges = snapshot.interstitialPlayedRanges[event.id],
                  let base = PlaybackObservation.position(of: event, on: timeline) else { continue }
            intervals[event.id] = ranges.ranges.map { (base + AdTime($0.start))...(base + AdTime($0.end)) }
        }
        return intervals
    }
}
