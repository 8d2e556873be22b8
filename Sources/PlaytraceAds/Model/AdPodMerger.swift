/// Folds each new metadata response into the breaks known so far, keeping every event's fired state.
///
/// Identity is the pod, the ad, the event type and the time — never the URLs. An event of the new response takes
/// the identity (and so the state) of the known event of its pod, ad and type nearest in time within
/// ``timeTolerance``, or of the only one of that type when both sides have one; its time, duration and URLs are
/// refreshed from the response. An ad or a break that disappears from a response leaves the list, but the
/// states of its events are remembered: if it comes back, nothing it fired fires again. A break absent from the
/// response that has already begun (the live window moved on) stays listed until it ended more than
/// ``retention`` ago.
public struct AdPodMerger: Sendable {
    /// How far a refreshed event time may move and still be the same event (a second).
    public var timeTolerance: AdTime = 1_000
    /// How long a break stays listed after its end once the metadata no longer lists it (Harmonic's
    /// `keepPodsForMs`, 2 h).
    public var retention: AdTime = 2 * 3_600_000
    /// The most remembered states of events that left the list (the oldest are forgotten first).
    public var rememberedLimit = 20_000

    private struct Lineage: Hashable {
        var podID: String
        var adID: String?
        var event: TrackingEventType
    }

    private struct Remembered {
        var key: TrackingEventKey
        var time: AdTime
        var state: ReportingState
    }

    /// States of events no longer listed, by pod, ad and type.
    private var remembered: [Lineage: [Remembered]] = [:]
    private var rememberedCount = 0

    public init() {}

    /// The breaks after a response: `incoming` merged into `current`.
    /// - Parameters:
    ///   - incoming: the breaks of the new response.
    ///   - current: the breaks known so far, with their events' states.
    ///   - playhead: where playback is on the ad timeline, to tell breaks that the live window left
    ///     behind from breaks that were withdrawn; `nil` when unknown.
    public mutating func merge(_ incoming: [AdPod], into current: [AdPod], playhead: AdTime?) -> [AdPod] {
        let known = Dictionary(current.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var result: [AdPod] = []
        result.reserveCapacity(max(incoming.count, current.count))
        var listed: Set<String> = []
        for pod in incoming {
            listed.insert(pod.id)
            result.append(merge(pod, with: known[pod.id]))
        }
        for pod in current where !listed.contains(pod.id) {
            let begun = playhead.map { pod.startTime <= $0 } ?? true
            let expired = playhead.map { pod.endTime + retention < $0 } ?? false
            if begun, !expired {
                result.append(pod)
            } else {
                remember(pod.allTrackingEvents)
            }
        }
        result.sort { $0.startTime < $1.startTime }
        return result
    }

    private mutating func merge(_ pod: AdPod, with existing: AdPod?) -> AdPod {
        var merged = pod
        merged.trackingEvents = merge(pod.trackingEvents, with: existing?.trackingEvents ?? [])
        let knownAds = Dictionary((existing?.ads ?? []).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var listedAds: Set<String> = []
        for index in merged.ads.indices {
            let ad = merged.ads[index]
            listedAds.insert(ad.id)
            merged.ads[index].trackingEvents = merge(ad.trackingEvents, with: knownAds[ad.id]?.trackingEvents ?? [])
        }
        for ad in existing?.ads ?? [] where !listedAds.contains(ad.id) { remember(ad.trackingEvents) }
        return merged
    }

    /// The incoming events with the identities and states of the known ones they match.
    private mutating func merge(_ incoming: [TrackingEvent], with known: [TrackingEvent]) -> [TrackingEvent] {
        var candidates: [Lineage: [TrackingEvent]] = [:]
        for event in known { candidates[lineage(of: event), default: []].append(event) }
        var incomingCounts: [Lineage: Int] = [:]
        for event in incoming { incomingCounts[lineage(of: event), default: 0] += 1 }
        var result = incoming
        for index in result.indices {
            let event = result[index]
            let line = lineage(of: event)
            var pool = candidates[line] ?? []
            let match = nearest(to: event.startTime, in: pool.map(\.startTime))
                ?? (pool.count == 1 && incomingCounts[line] == 1 ? 0 : nil)
            if let match {
                result[index].id = pool[match].id
                result[index].reportingState = pool[match].reportingState
                pool.remove(at: match)
                candidates[line] = pool
            } else if let restored = restore(line, near: event.startTime) {
                result[index].id = restored.key
                result[index].reportingState = restored.state
            }
        }
        // Known events the response no longer lists are remembered, in case they come back.
        remember(candidates.values.flatMap(\.self))
        return result
    }

    private func nearest(to time: AdTime, in times: [AdTime]) -> Int? {
        var best: (index: Int, distance: AdTime)?
        for (index, candidate) in times.enumerated() {
            let distance = candidate.distance(to: time)
            guard distance <= timeTolerance else { continue }
            if best == nil || distance < best!.distance { best = (index, distance) }
        }
        return best?.index
    }

    private func lineage(of event: TrackingEvent) -> Lineage {
        Lineage(podID: event.id.podID, adID: event.id.adID, event: event.id.event)
    }

    private mutating func remember(_ events: [TrackingEvent]) {
        for event in events where event.reportingState != .idle {
            remembered[lineage(of: event), default: []].append(
                Remembered(key: event.id, time: event.startTime, state: event.reportingState))
            rememberedCount += 1
        }
        if rememberedCount > rememberedLimit { forgetOldest() }
    }

    private mutating func restore(_ line: Lineage, near time: AdTime) -> Remembered? {
        guard var list = remembered[line] else { return nil }
        guard let index = nearest(to: time, in: list.map(\.time)) ?? (list.count == 1 ? 0 : nil) else { return nil }
        let found = list.remove(at: index)
        remembered[line] = list.isEmpty ? nil : list
        rememberedCount -= 1
        return found
    }

    private mutating func forgetOldest() {
        let all = remembered.values.flatMap(\.self).sorted { $0.time < $1.time }
        let keep = all.suffix(rememberedLimit / 2)
        remembered = [:]
        for entry in keep {
            remembered[Lineage(podID: entry.key.podID, adID: entry.key.adID, event: entry.key.event), default: []].append(entry)
        }
        rememberedCount = keep.count
    }
}
