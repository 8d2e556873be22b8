public import PlaytracePlayer

extension AdBeaconingSession {
    /// The automatic events that the media played called for, by the scheduler's rule: what the engine played
    /// (`snapshot`'s played ranges, primary and interstitials) less what it passed only faster than the scheduler
    /// fires (``BeaconScheduler/playbackRates``: above 2.5× by default), as the engine's progress reports told it.
    ///
    /// The yardstick a summary measures the fired beacons against: an event expected and not fired was missed, one
    /// fired and not expected was not called for.
    ///
    /// ```swift
    /// let missed = session.expectedEvents(played: await engine.snapshot())
    ///     .subtracting(session.beacons.map(\.firing.key))
    /// ```
    public func expectedEvents(played snapshot: EngineSnapshot?) -> Set<TrackingEventKey> {
        expectedEvents(played: snapshot, in: adPods, scopes: interstitialOfPod)
    }

    /// The automatic events of `pods` that the media played called for; `scopes` names the interstitial of each
    /// break that belongs to one.
    func expectedEvents(played snapshot: EngineSnapshot?, in pods: [AdPod],
                        scopes: [String: String]) -> Set<TrackingEventKey> {
        let played = snapshot.map { BeaconAudit.playedIntervals(of: $0, on: timeline) } ?? []
        let interstitials = snapshot.map { BeaconAudit.playedInterstitialIntervals(of: $0, on: timeline) } ?? [:]
        // By scope: an interstitial's ID, or nil for the primary.
        var fast: [String?: [ClosedRange<AdTime>]] = [:]
        var beaconed: [String?: [ClosedRange<AdTime>]] = [:]
        for span in playedSpans.spans {
            let scope = span.progress.interstitial?.event.id
            for observation in PlaybackObservation.observations(for: span.progress, on: timeline, at: span.end) {
                guard case .played(let from, let to, let rate, _) = observation else { continue }
                if scheduler.firesAt(rate: rate) {
                    beaconed[scope, default: []].append(from...to)
                } else {
                    fast[scope, default: []].append(from...to)
                }
            }
        }
        // What was passed fast and also played at a beaconing rate (after a seek back, say) was played.
        var primaryFast: [ClosedRange<AdTime>] = []
        var interstitialFast: [String: [ClosedRange<AdTime>]] = [:]
        for (scope, ranges) in fast {
            let ranges = BeaconAudit.subtracting(beaconed[scope] ?? [], from: ranges)
            if let scope { interstitialFast[scope] = ranges } else { primaryFast = ranges }
        }
        return BeaconAudit.expectedEvents(in: pods, played: played, interstitials: interstitials,
                                          scopes: scopes, fastForwarded: primaryFast,
                                          fastForwardedInterstitials: interstitialFast)
    }
}
