public import PlaytraceCore

/// What the macros of one VAST ad's beacons are filled with, and where its errors go.
public struct VASTAdContext: Sendable, Hashable {
    /// `[ASSETURI]`: the media file played.
    public var assetURI: String?
    /// `[UNIVERSALADID]`.
    public var universalAdID: String?
    /// `[PODSEQUENCE]`: the ad's `sequence`.
    public var podSequence: Int?
    /// `[ADCOUNT]`: its place among the break's ads, from 1.
    public var adCount: Int
    /// `[ADSERVINGID]`.
    public var adServingID: String?
    /// `[ADTYPE]`.
    public var adType: String?
    /// The `<Error>` URLs of the ad and every wrapper above it.
    public var errorURLs: [String]
}

/// Turns resolved VAST ads into an ad break on the ad timeline, so that the beacon scheduler fires their events:
/// the impressions of the inline ad and of every wrapper together at the first frame (with `creativeView`,
/// `loaded` and each verification's `verificationNotExecuted`), `start`, the quartiles at 25/50/75 % and
/// `complete` at the end, each `progress` at its offset (a percentage needs the duration; an offset past the end
/// never fires), and the player-initiated events (pause, resume, mute, unmute, rewind, skip, playerExpand,
/// playerCollapse) for the viewer's actions. Tracking of the same event in the inline ad and its wrappers becomes one
/// event with all their URLs.
public struct VASTAdBreak: Sendable, Hashable {
    /// The break, its ads in play order.
    public var pod: AdPod
    /// Each ad's macro values and error URLs, by ad ID.
    public var contexts: [String: VASTAdContext]

    /// - Parameters:
    ///   - id: the break's ID.
    ///   - start: where it begins on the ad timeline.
    ///   - ads: the ads, in play order, each with its duration (its `<Duration>`, or the media's) and the media file
    ///     played.
    public init(id: String, start: AdTime, ads: [(ad: ResolvedVASTAd, duration: MediaTime, mediaURL: String?)]) {
        var time = start
        var built: [Ad] = []
        var contexts: [String: VASTAdContext] = [:]
        var usedIDs: Set<String> = []
        for (index, entry) in ads.enumerated() {
            var adID = entry.ad.ad.id.map { $0.isEmpty ? "ad-\(index + 1)" : $0 } ?? "ad-\(index + 1)"
            if usedIDs.contains(adID) { adID += "#\(index + 1)" }
            usedIDs.insert(adID)
            let duration = AdTime(milliseconds: max(0, entry.duration.isFinite ? entry.duration.seconds : 0) * 1000)
            let events = Self.events(of: entry.ad, podID: id, adID: adID, start: time, duration: duration)
            built.append(Ad(id: adID, startTime: time, duration: duration, trackingEvents: events,
                            title: entry.ad.ad.inline?.title, clickThrough: entry.ad.linear?.clickThrough))
            contexts[adID] = VASTAdContext(
                assetURI: entry.mediaURL, universalAdID: entry.ad.universalAdID, podSequence: entry.ad.ad.sequence,
                adCount: index + 1, adServingID: entry.ad.ad.adServingID, adType: entry.ad.ad.adType,
                errorURLs: entry.ad.errorURLs)
            time += duration
        }
        pod = AdPod(id: id, startTime: start, duration: time - start, ads: built)
        self.contexts = contexts
    }

    private static let playerInitiated: [TrackingEventType] = [
        .pause, .resume, .mute, .unmute, .rewind, .skip, .playerExpand, .playerCollapse,
    ]

    private static func events(of resolved: ResolvedVASTAd, podID: String, adID: String, start: AdTime,
                               duration: AdTime) -> [TrackingEvent] {
        // URLs by event and time, in order of first appearance.
        var order: [TrackingEventKey] = []
        var urls: [TrackingEventKey: [String]] = [:]
        var spans: [TrackingEventKey: AdTime] = [:]
        var times: [TrackingEventKey: AdTime] = [:]
        func add(_ type: TrackingEventType, at time: AdTime, _ list: [String], spans span: AdTime = .zero) {
            let key = TrackingEventKey(podID: podID, adID: adID, event: type, time: Int64(saturating: time.milliseconds))
            if urls[key] == nil {
                order.append(key)
                spans[key] = span
                times[key] = time
            }
            urls[key, default: []] += list
        }
        add(.impression, at: start, resolved.impressionURLs, spans: duration)
        add(.verificationNotExecuted, at: start,
            resolved.verifications.flatMap { $0.trackingEvents.filter { $0.event == "verificationNotExecuted" }.map(\.url) })
        let seconds = duration.seconds
        for tracking in resolved.trackingEvents {
            let type = TrackingEventType(rawValue: tracking.event)
            switch type {
            case .creativeView, .loaded, .start: add(type, at: start, [tracking.url])
            case .firstQuartile: add(type, at: start + duration * 0.25, [tracking.url])
            case .midpoint: add(type, at: start + duration * 0.5, [tracking.url])
            case .thirdQuartile: add(type, at: start + duration * 0.75, [tracking.url])
            case .complete: add(type, at: start + duration, [tracking.url])
            case .progress:
                // A percentage of an unknown duration, or an offset the ad never reaches, cannot fire.
                guard let offset = tracking.offset?.seconds(in: seconds > 0 ? seconds : nil), offset <= seconds else { continue }
                add(type, at: start + AdTime(milliseconds: offset * 1000), [tracking.url])
            default:
                if playerInitiated.contains(type) { add(type, at: start, [tracking.url], spans: duration) }
            }
        }
        return order.compactMap { key in
            let list = urls[key] ?? []
            // An event without a URL anywhere in the chain has nothing to send.
            guard !list.isEmpty else { return nil }
            return TrackingEvent(id: key, event: key.event, startTime: times[key] ?? AdTime(milliseconds: Double(key.time)),
                                 duration: spans[key] ?? .zero,
                                 signalingUrls: list)
        }
    }
}
