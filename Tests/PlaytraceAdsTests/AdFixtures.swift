import PlaytraceAds

/// Breaks built in code for the scheduler and merge tests: times in milliseconds, URLs naming their event.
enum AdFixtures {
    static func event(_ type: TrackingEventType, pod: String, ad: String?, at time: AdTime, duration: AdTime = .zero,
                      url: String? = nil) -> TrackingEvent {
        TrackingEvent(id: TrackingEventKey(podID: pod, adID: ad, event: type, time: Int64(time.milliseconds)), event: type,
                      startTime: time, duration: duration,
                      signalingUrls: [url ?? "https://t.example/\(pod)/\(ad ?? "-")/\(type.rawValue)"])
    }

    /// An ad with impression, start, the quartiles, complete, and pause, mute and rewind events.
    static func ad(_ id: String, pod: String, start: AdTime, duration: AdTime, cacheBuster: String = "") -> Ad {
        var events: [TrackingEvent] = []
        for (type, fraction) in [(TrackingEventType.impression, 0.0), (.start, 0), (.firstQuartile, 0.25), (.midpoint, 0.5),
                                 (.thirdQuartile, 0.75), (.complete, 1)] {
            let url = "https://t.example/\(pod)/\(id)/\(type.rawValue)\(cacheBuster)"
            events.append(event(type, pod: pod, ad: id, at: start + duration * fraction,
                                duration: type == .impression ? duration : .zero, url: url))
        }
        for type in [TrackingEventType.pause, .mute, .rewind] {
            events.append(event(type, pod: pod, ad: id, at: start, duration: duration))
        }
        return Ad(id: id, startTime: start, duration: duration, trackingEvents: events)
    }

    /// A break at 10 s of two 10 s ads, with breakStart and breakEnd.
    static func pod(_ id: String = "p", start: AdTime = 10_000, adDuration: AdTime = 10_000, ads: Int = 2,
                    cacheBuster: String = "") -> AdPod {
        let adList = (0..<ads).map { ad("a\($0 + 1)", pod: id, start: start + adDuration * Double($0), duration: adDuration,
                                        cacheBuster: cacheBuster) }
        let end = start + adDuration * Double(ads)
        return AdPod(id: id, startTime: start, duration: end - start, ads: adList,
                     trackingEvents: [event(.breakStart, pod: id, ad: nil, at: start), event(.breakEnd, pod: id, ad: nil, at: end)])
    }

    static func states(_ pods: [AdPod]) -> [String: ReportingState] {
        var states: [String: ReportingState] = [:]
        for event in pods.flatMap(\.allTrackingEvents) { states["\(event.id.adID ?? "-")/\(event.event.rawValue)"] = event.reportingState }
        return states
    }

    static let automaticNames = ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"]
}

extension BeaconScheduler {
    /// Plays `from…to` in ticks of `tick` ms at `rate`, the stopwatch at `offset` ms ahead of the media time.
    mutating func play(_ pods: inout [AdPod], from: AdTime, to: AdTime, tick: AdTime = 100, rate: Double = 1,
                       offset: AdTime = .zero) -> [BeaconFiring] {
        var firings: [BeaconFiring] = []
        var position = from
        while position < to {
            let next = min(position + tick, to)
            let instant = Duration.milliseconds(Int64(((next - from) / rate + from + offset).milliseconds.rounded()))
            firings += observe(.played(from: position, to: next, rate: rate, at: instant), pods: &pods)
            position = next
        }
        return firings
    }
}
