import PlaytraceAds
import PlaytraceCore

extension SessionAds {
    /// The ad tracking for the session summary.
    /// - Parameter sessionStart: how far the ad session's stopwatch ran ahead of the summary's (its instants minus
    ///   this count from the summary's start).
    func summary(sessionStart: Duration) -> SessionSummary.Ads {
        let info = session.sessionInfo
        var beacons: [SessionSummary.Beacon] = []
        var omitted = 0
        for record in session.beacons {
            for url in record.urls {
                guard beacons.count < SessionSummary.Ads.beaconLimit else {
                    omitted += 1
                    continue
                }
                beacons.append(beacon(record, url: url, sessionStart: sessionStart))
            }
        }
        return SessionSummary.Ads(
            format: settings.format.rawValue,
            session: info.map {
                SessionSummary.AdSession(id: $0.id, obtainedBy: $0.obtainedBy, mediaURL: $0.mediaUrl.absoluteString,
                                         manifestURL: $0.manifestUrl.absoluteString,
                                         metadataURL: $0.adTrackingMetadataUrl.absoluteString)
            },
            metadataRequests: session.metadataAttempts, metadataFailures: session.metadataFailures,
            latestError: session.latestError.map(PlainText.safe), counts: countsSummary,
            pods: session.adPods.map(pod), beacons: beacons, beaconsOmitted: omitted,
            podsRetired: session.retiredBreakCount > 0 ? session.retiredBreakCount : nil,
            beaconsRetired: retiredBeaconURLs > 0 ? retiredBeaconURLs : nil,
            vastChains: session.vastChains.isEmpty ? nil : session.vastChains.map(Self.chain),
            vastChainsOmitted: session.vastChainsDropped > 0 ? session.vastChainsDropped : nil)
    }

    private static func chain(_ record: VASTChainRecord) -> SessionSummary.VASTChain {
        SessionSummary.VASTChain(
            podID: record.podID, interstitialID: record.interstitialID,
            requests: record.requests.map { .init(url: $0.url, depth: $0.depth, failure: $0.failure.map(PlainText.safe)) },
            ads: record.ads.map { .init(id: $0.id, chainURLs: $0.chainURLs, leftOut: $0.leftOut) },
            errors: record.errors.map { .init(code: $0.code.rawValue, message: PlainText.safe($0.message), urls: $0.urls) })
    }

    private var countsSummary: SessionSummary.AdCounts {
        SessionSummary.AdCounts(
            expected: counts.expected, fired: counts.fired, playerInitiated: counts.playerInitiated,
            delivered: counts.delivered, failed: counts.failed, waiting: counts.waiting, late: counts.late,
            missed: counts.missed, unexpected: counts.unexpected, duplicated: counts.duplicated, restored: counts.restored,
            vastErrorReports: counts.errors, refusedURLs: counts.refusedURLs, urlsOverLimit: counts.urlsOverLimit,
            worstDeliveryLatenessMilliseconds: hasBeacons ? counts.worstLateness.seconds * 1000 : nil,
            worstFiringLatenessMilliseconds: hasBeacons ? counts.worstFiringLateness.seconds * 1000 : nil)
    }

    /// A stream date on the ad timeline (ISO 8601), when the timeline is one of dates.
    private func date(_ time: AdTime) -> String? {
        session.timeline == .programDateTime ? time.streamDate.iso8601Milliseconds : nil
    }

    private func pod(_ pod: AdPod) -> SessionSummary.Pod {
        SessionSummary.Pod(
            id: pod.id, startSeconds: mediaSeconds(pod.startTime), startDate: date(pod.startTime),
            durationSeconds: pod.duration.seconds,
            reached: pod.allTrackingEvents.contains { $0.reportingState != .idle } || session.fates.pods[pod.id] != nil,
            fate: session.fates.pods[pod.id].map(Self.fate),
            events: pod.trackingEvents.map(event),
            ads: pod.ads.map { ad in
                SessionSummary.Ad(id: ad.id, title: ad.title, startSeconds: mediaSeconds(ad.startTime),
                                  startDate: date(ad.startTime), durationSeconds: ad.duration.seconds,
                                  fate: session.fates.ad(ad.id, in: pod.id).map(Self.fate),
                                  events: ad.trackingEvents.map(event))
            })
    }

    /// A fate as the summary records it, its outside text (a server's reason) made safe to show.
    private static func fate(_ fate: AdFate) -> SessionSummary.Fate {
        switch fate {
        case .skipped: SessionSummary.Fate(kind: "skipped", text: fate.description)
        case .noAd(let code): SessionSummary.Fate(kind: "noAd", code: code, text: fate.description)
        case .failed(let reason):
            SessionSummary.Fate(kind: "failed", reason: PlainText.safe(reason), text: PlainText.safe(fate.description))
        case .mediaFailed(let reason):
            SessionSummary.Fate(kind: "mediaFailed", reason: PlainText.safe(reason), text: PlainText.safe(fate.description))
        }
    }

    private func event(_ event: TrackingEvent) -> SessionSummary.TrackingEvent {
        let automatic = event.event.kind == .automatic
        return SessionSummary.TrackingEvent(
            key: event.id.description, type: event.event.rawValue, trigger: event.event.kind.rawValue,
            timeSeconds: automatic ? mediaSeconds(event.startTime) : nil, date: automatic ? date(event.startTime) : nil,
            state: event.reportingState.rawValue, urls: event.signalingUrls)
    }

    private func beacon(_ record: BeaconRecord, url: BeaconRecord.URLState, sessionStart: Duration) -> SessionSummary.Beacon {
        let hasTime = record.firing.cause != .error
        var entry = SessionSummary.Beacon(
            event: record.firing.event.rawValue, key: record.firing.key.description, url: url.url,
            cause: record.firing.cause.rawValue,
            eventTimeSeconds: hasTime ? mediaSeconds(record.firing.mediaTime) : nil,
            eventDate: hasTime ? date(record.firing.mediaTime) : nil,
            crossingSeconds: (record.firing.crossing - sessionStart).seconds, sentSeconds: (record.sentAt - sessionStart).seconds,
            firingLatenessMilliseconds: realTime(record.lateness).seconds * 1000, attempts: url.attempts, state: "waiting",
            urlsOverLimit: record.urlsOverLimit > 0 ? record.urlsOverLimit : nil, late: false)
        switch url.outcome {
        case .delivered(let at):
            entry.state = "delivered"
            entry.deliveredSeconds = (at - sessionStart).seconds
            let lateness = realTime(at - record.firing.crossing)
            entry.deliveryLatenessMilliseconds = lateness.seconds * 1000
            entry.late = lateness > Self.lateness
        case .skipped: entry.state = "skipped"
        case .refused(let reason):
            entry.state = "refused"
            entry.reason = reason
        case .failed(let reason):
            entry.state = "failed"
            entry.reason = reason
        case nil: break
        }
        return entry
    }
}
