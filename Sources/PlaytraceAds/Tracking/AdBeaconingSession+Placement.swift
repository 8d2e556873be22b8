import PlaytraceCore
import PlaytracePlayer

/// The break and ad the playhead is in, as the ad playback events last said.
struct AdPlacement: Equatable {
    var podID: String
    var adID: String?
}

extension AdBeaconingSession {
    /// The content position of a time of the ad timeline, when known: the media time itself, or the date less the
    /// date the content starts at (from the player's date at its playhead).
    func contentPosition(of value: AdTime) -> MediaTime? {
        switch timeline {
        case .mediaTime: return value.mediaTime
        case .programDateTime:
            guard let date = playerObserver.currentDate else { return nil }
            return (value - (AdTime(date) - AdTime(playerObserver.playhead))).mediaTime
        }
    }

    /// How near the content's start or end a break is a pre-roll or a post-roll.
    static let rollMargin = MediaTime(seconds: 0.5)

    /// Where a break plays: live breaks are mid-rolls; on demand, a break at the start is a pre-roll and one that
    /// reaches the end a post-roll.
    func breakPosition(of pod: AdPod) -> AdBreakPosition {
        if let interstitial = interstitial(of: pod) {
            switch interstitial.placement {
            case .preRoll: return .preRoll
            case .postRoll: return .postRoll
            case .midRoll: break
            }
        }
        guard playerObserver.streamType == .onDemand || playerObserver.streamType == .unknown else { return .midRoll }
        if let start = contentPosition(of: pod.startTime), start <= Self.rollMargin { return .preRoll }
        if let end = contentPosition(of: pod.endTime), let duration = playerObserver.duration, end >= duration - Self.rollMargin {
            return .postRoll
        }
        return .midRoll
    }

    /// The break holding a position of the ad timeline where the playhead now is (the primary's, or the
    /// interstitial's that plays), and the ad in it there, if any.
    func locate(_ position: AdTime) -> (podIndex: Int, adIndex: Int?)? {
        let scope = scheduler.scope
        guard let podIndex = adPods.firstIndex(where: {
            $0.startTime <= position && position < $0.endTime && scheduler.podScopes[$0.id] == scope
        }) else { return nil }
        return (podIndex, adPods[podIndex].ads.firstIndex { $0.startTime <= position && position < $0.endTime })
    }

    /// Follows the playhead through breaks and ads: says each entry, exit and movement (``adPlaybackObserver``).
    func updatePlacement(at position: AdTime) {
        guard let observer = adPlaybackObserver else { return }
        let located = locate(position)
        let pod = located.map { adPods[$0.podIndex] }
        let ad = located?.adIndex
        let next = pod.map { AdPlacement(podID: $0.id, adID: ad.map { pod!.ads[$0].id }) }
        if next != placement {
            say(leaving: placement, at: position, for: next, to: observer)
            if let pod, placement?.podID != pod.id { observer(.breakBegan(pod, position: breakPosition(of: pod))) }
            if let pod, let ad { observer(.adBegan(pod.ads[ad], index: ad, pod: pod)) }
            placement = next
        }
        if let pod, let ad { observer(.adProgressed(pod.ads[ad], position: position - pod.ads[ad].startTime)) }
    }

    /// Says the end of the ad (and break) of a placement the playhead left, seen at `position`.
    private func say(leaving previous: AdPlacement?, at position: AdTime, for next: AdPlacement?,
                     to observer: @MainActor (AdPlaybackEvent) -> Void) {
        guard let previous else { return }
        if let adID = previous.adID, let left = self.ad(previous.podID, adID) {
            // Within a millisecond of its end, and not a second past it (a seek beyond).
            let completed = position >= left.endTime - 1 && position - left.endTime < 1_000
            if completed { observer(.adProgressed(left, position: left.duration)) }
            observer(.adEnded(left, completed: completed))
        }
        if previous.podID != next?.podID, let left = adPods.first(where: { $0.id == previous.podID }) {
            observer(.breakEnded(left))
        }
    }

    /// The playhead moves between the primary and an interstitial: the break it was in ends where it was last seen.
    func leavePlacement(lastSeenAt position: AdTime?) {
        defer { placement = nil }
        guard let observer = adPlaybackObserver, let position else { return }
        say(leaving: placement, at: position, for: nil, to: observer)
    }

    private func ad(_ podID: String, _ adID: String) -> Ad? {
        adPods.first { $0.id == podID }?.ads.first { $0.id == adID }
    }

    /// The ad under the playhead, as the placement last said.
    var placedAd: Ad? {
        guard let placement, let adID = placement.adID else { return nil }
        return ad(placement.podID, adID)
    }

    /// The player paused, resumed, waited for data or failed: said for the ad that plays, if any.
    func playerStateChanged(_ make: (Ad) -> AdPlaybackEvent) {
        guard let observer = adPlaybackObserver, let ad = placedAd else { return }
        observer(make(ad))
    }
}
