public import PlaytracePlayer

/// A break taken out of a session by ``AdBeaconingSession/retireBreaks(endingBefore:)``, with everything it fired.
public struct RetiredBreak: Sendable {
    /// The break, with its events' final states.
    public var pod: AdPod
    /// The interstitial it belonged to (``AdBeaconingSession/interstitialOfPod``), if any.
    public var interstitialID: String?
    /// The beacons it fired, in the order they were fired, each settled.
    public var beacons: [BeaconRecord]
    /// Why it, and each of its ads by ID, did not play out, as the player told.
    public var fate: AdFate?
    public var adFates: [String: AdFate]
}

extension AdBeaconingSession {
    /// Takes out of the session the breaks that end before `bound` on the ad timeline, whose beacons have all settled
    /// and that the playhead is not in: their events, their beacon records and their fates, returned for a caller
    /// that keeps totals. A break retired never comes back: metadata that lists it again is not merged, so nothing it
    /// fired fires twice.
    ///
    /// For a session that plays for hours, or thousands of sessions at once: what a break holds (its events' URLs,
    /// its beacons' filled URLs) otherwise stays for the session's life. The bound a caller passes is a time the
    /// viewer cannot play again, such as the start of a live stream's seekable window: a break retired before it
    /// was played out would lose the events a seek back into it fires.
    ///
    /// ```swift
    /// let retired = session.retireBreaks(endingBefore: windowStart)
    /// let expected = session.expectedEvents(played: snapshot, in: retired)
    /// ```
    public func retireBreaks(endingBefore bound: AdTime) -> [RetiredBreak] {
        let placed = placement?.podID
        let leaving = adPods.filter { $0.endTime < bound && $0.id != placed && book.isSettled(pod: $0.id) }
        guard !leaving.isEmpty else { return [] }
        let ids = Set(leaving.map(\.id))
        var records: [String: [BeaconRecord]] = [:]
        for record in book.remove(pods: ids) { records[record.firing.key.podID, default: []].append(record) }
        let retired = leaving.map { pod in
            RetiredBreak(pod: pod, interstitialID: scheduler.podScopes[pod.id], beacons: records[pod.id] ?? [],
                         fate: fates.pods[pod.id], adFates: fates.ads[pod.id] ?? [:])
        }
        adPods.removeAll { ids.contains($0.id) }
        for pod in leaving {
            fates.pods[pod.id] = nil
            fates.ads[pod.id] = nil
            addedPodIDs.remove(pod.id)
            retiredPodEnds[pod.id] = pod.endTime
        }
        scheduler.forget(pods: ids)
        retiredBreakCount += retired.count
        retiredBeaconCount += retired.reduce(0) { $0 + $1.beacons.count }
        // A break older than what the scheduler and the merger remember could not come back as new anyway.
        let horizon = bound - max(podRetention, scheduler.historySpan)
        retiredPodEnds = retiredPodEnds.filter { $0.value >= horizon }
        boundariesChanged?()
        return retired
    }

    /// The automatic events of retired breaks that the media played called for, by the rule of
    /// ``expectedEvents(played:)``: call it with the snapshot of when they were retired, before the session observes
    /// more.
    public func expectedEvents(played snapshot: EngineSnapshot?, in retired: [RetiredBreak]) -> Set<TrackingEventKey> {
        var scopes: [String: String] = [:]
        for pod in retired { scopes[pod.pod.id] = pod.interstitialID }
        return expectedEvents(played: snapshot, in: retired.map(\.pod), scopes: scopes)
    }
}
