import PlaytraceCore

/// Decodes AWS Elemental MediaTailor's client-side tracking JSON (`{"avails": [...], "nextToken": ...}`) into the
/// same model as Harmonic's metadata.
///
/// Times are seconds from the start of the session (`startTimeInSeconds`, or the ISO 8601 duration `startTime`),
/// made milliseconds on a ``AdTimeline/mediaTime`` timeline. An avail's `breakStart` and `breakEnd` events (which
/// carry no time) fire at the avail's start and end. Ads are identified by `adId` (the schema's `adID` too);
/// MediaTailor's ids are segment numbers and can repeat within an avail, so repeats get a suffix. Non-linear
/// avails are counted, not beaconed. Lenient like ``HarmonicMetadataDecoder``: a bad element is a problem, the
/// rest is kept.
///
/// ```swift
/// let tracking = try MediaTailorTrackingDecoder().decode(body)
/// print(tracking.pods.count, tracking.nextToken ?? "no token")
/// ```
public struct MediaTailorTrackingDecoder: Sendable {
    public var limits: AdMetadataLimits

    public init(limits: AdMetadataLimits = AdMetadataLimits()) { self.limits = limits }

    /// Decodes one response body.
    /// - Throws: ``AdMetadataError`` when the body is not JSON, too large or not an object.
    public func decode(_ body: some Collection<UInt8>) throws(AdMetadataError) -> AdMetadata {
        try decode(root: JSONReader.root(of: body, limits: limits))
    }

    /// Decodes a parsed response.
    func decode(root: JSONReader) throws(AdMetadataError) -> AdMetadata {
        var problems: [AdMetadataProblem] = []
        var pods: [AdPod] = []
        var podIDs = IdentifierDeduplicator()
        if let avails = root.objects("avails", limit: limits.maximumPods, problems: &problems) {
            for reader in avails {
                if let pod = decodeAvail(reader, ids: &podIDs, problems: &problems) { pods.append(pod) }
            }
        } else if !root.has("avails") {
            problems.append(AdMetadataProblem(path: "avails", message: "missing: no breaks in this response"))
        }
        pods.sort { $0.startTime < $1.startTime }
        let token = root.string("nextToken", problems: &problems).flatMap { $0.isEmpty ? nil : $0 }
        var timeline = AdTimeline.mediaTime
        if let text = root.string("dashAvailabilityStartTime", problems: &problems), !text.isEmpty {
            // A DASH live session: times count from the MPD's availabilityStartTime, a date, which makes them dates.
            if let start = try? StreamDate(iso8601: text), start.millisecondsSince1970.isFinite {
                pods = pods.map { $0.shifted(by: AdTime(start)) }
                timeline = .programDateTime
            } else {
                problems.append(AdMetadataProblem(path: root.path(of: "dashAvailabilityStartTime"),
                                                  message: "not a date: times are taken from the session's start"))
            }
        }
        return AdMetadata(pods: pods, timeline: timeline, nextToken: token,
                          nonLinearAvailCount: root.count("nonLinearAvails"), problems: problems)
    }

    private func decodeAvail(_ reader: JSONReader, ids: inout IdentifierDeduplicator,
                             problems: inout [AdMetadataProblem]) -> AdPod? {
        guard let start = seconds(reader, "startTimeInSeconds", "startTime", &problems) else {
            problems.append(AdMetadataProblem(path: reader.path, message: "skipped: the avail has no usable start time"))
            return nil
        }
        let duration = max(seconds(reader, "durationInSeconds", "duration", &problems) ?? 0, 0)
        let id = ids.unique(reader.identifier("availId", problems: &problems) ?? "@\(Int64(saturating: start * 1000))")
        var pod = AdPod(id: id, startTime: AdTime(milliseconds: start * 1000), duration: AdTime(milliseconds: duration * 1000))
        var adIDs = IdentifierDeduplicator()
        for adReader in reader.objects("ads", limit: limits.maximumAdsPerPod, problems: &problems) ?? [] {
            if let ad = decodeAd(adReader, podID: id, ids: &adIDs, problems: &problems) { pod.ads.append(ad) }
        }
        pod.ads.sort { $0.startTime < $1.startTime }
        // An avail announced with duration 0 grows as its ads arrive: its end is at least its last ad's.
        if let last = pod.ads.last, last.endTime > pod.endTime { pod.duration = last.endTime - pod.startTime }
        for eventReader in reader.objects("adBreakTrackingEvents", limit: limits.maximumEventsPerAd, problems: &problems) ?? [] {
            guard let type = eventReader.string("eventType", problems: &problems) else {
                problems.append(AdMetadataProblem(path: eventReader.path, message: "skipped: no eventType"))
                continue
            }
            let eventType = TrackingEventType(rawValue: type)
            let time: AdTime
            switch eventType {
            case .breakStart: time = pod.startTime
            case .breakEnd: time = pod.endTime
            default:
                problems.append(AdMetadataProblem(path: eventReader.path(of: "eventType"), message: "\(type) has no time at the break's level: listed, not fired"))
                time = pod.startTime
            }
            let urls = eventReader.strings("beaconUrls", limit: limits.maximumURLsPerEvent,
                                           maximumLength: limits.maximumURLLength, problems: &problems) ?? []
            let key = TrackingEventKey(podID: id, adID: nil, event: eventType, time: Int64(saturating: time.milliseconds))
            pod.trackingEvents.append(TrackingEvent(id: key, event: eventType, startTime: time, signalingUrls: urls,
                                                    urlsOverLimit: eventReader.countOver("beaconUrls", limit: limits.maximumURLsPerEvent)))
        }
        pod.trackingEvents = AdEventOrdering.disambiguated(pod.trackingEvents)
        return pod
    }

    private func decodeAd(_ reader: JSONReader, podID: String, ids: inout IdentifierDeduplicator,
                          problems: inout [AdMetadataProblem]) -> Ad? {
        guard let start = seconds(reader, "startTimeInSeconds", "startTime", &problems) else {
            problems.append(AdMetadataProblem(path: reader.path, message: "skipped: the ad has no usable start time"))
            return nil
        }
        guard let duration = seconds(reader, "durationInSeconds", "duration", &problems), duration >= 0 else {
            problems.append(AdMetadataProblem(path: reader.path, message: "skipped: the ad has no usable duration"))
            return nil
        }
        let rawID = reader.identifier("adId", problems: &problems) ?? reader.identifier("adID", problems: &problems)
        let id = ids.unique(rawID ?? "@\(Int64(saturating: start * 1000))")
        var ad = Ad(id: id, startTime: AdTime(milliseconds: start * 1000), duration: AdTime(milliseconds: duration * 1000),
                    title: reader.string("adTitle", problems: &problems))
        for eventReader in reader.objects("trackingEvents", limit: limits.maximumEventsPerAd, problems: &problems) ?? [] {
            guard let type = eventReader.string("eventType", problems: &problems) else {
                problems.append(AdMetadataProblem(path: eventReader.path, message: "skipped: no eventType"))
                continue
            }
            let eventType = TrackingEventType(rawValue: type)
            let urls = eventReader.strings("beaconUrls", limit: limits.maximumURLsPerEvent,
                                           maximumLength: limits.maximumURLLength, problems: &problems) ?? []
            if eventType == .clickThrough {
                // A URL to open on a click, never a beacon.
                if ad.clickThrough == nil { ad.clickThrough = urls.first }
                continue
            }
            let time: AdTime
            if let seconds = seconds(eventReader, "startTimeInSeconds", "startTime", &problems) {
                time = AdTime(milliseconds: seconds * 1000)
            } else if let derived = derivedTime(of: eventType, in: ad) {
                problems.append(AdMetadataProblem(path: eventReader.path, message: "no time: \(type) placed at its usual point of the ad"))
                time = derived
            } else {
                problems.append(AdMetadataProblem(path: eventReader.path, message: "skipped: \(type) has no time"))
                continue
            }
            let eventDuration = AdTime(milliseconds: max(seconds(eventReader, "durationInSeconds", "duration", &problems) ?? 0, 0) * 1000)
            let key = TrackingEventKey(podID: podID, adID: id, event: eventType, time: Int64(saturating: time.milliseconds))
            ad.trackingEvents.append(TrackingEvent(id: key, event: eventType, startTime: time, duration: eventDuration,
                                                   signalingUrls: urls,
                                                   urlsOverLimit: eventReader.countOver("beaconUrls", limit: limits.maximumURLsPerEvent)))
        }
        ad.trackingEvents = AdEventOrdering.disambiguated(ad.trackingEvents)
        return ad
    }

    /// Where an event without a time belongs, for the types whose point in the ad is defined.
    private func derivedTime(of type: TrackingEventType, in ad: Ad) -> AdTime? {
        let fraction: Double? = switch type {
        case .impression, .start, .loaded: 0
        case .firstQuartile: 0.25
        case .midpoint: 0.5
        case .thirdQuartile: 0.75
        case .complete: 1
        default: nil
        }
        return fraction.map { ad.startTime + ad.duration * $0 }
    }

    /// Seconds from a numeric field, or else from an ISO 8601 duration field (`PT17.8S`).
    private func seconds(_ reader: JSONReader, _ numeric: String, _ iso: String,
                         _ problems: inout [AdMetadataProblem]) -> Double? {
        if let value = reader.number(numeric, problems: &problems) {
            // Seconds, made milliseconds by the caller: within the same range as Harmonic's milliseconds.
            guard abs(value) <= JSONReader.largestNumber / 1000 else {
                problems.append(AdMetadataProblem(path: reader.path(of: numeric), message: "\(value) s is out of range"))
                return nil
            }
            return value
        }
        guard reader.has(iso) else { return nil }
        if let text = reader.object[iso] as? String {
            if let value = ISO8601Duration.seconds(text) { return value }
            problems.append(AdMetadataProblem(path: reader.path(of: iso), message: "\"\(text.prefix(40))\" is not an ISO 8601 duration"))
            return nil
        }
        guard let value = reader.number(iso, problems: &problems) else { return nil }
        guard abs(value) <= JSONReader.largestNumber / 1000 else {
            problems.append(AdMetadataProblem(path: reader.path(of: iso), message: "\(value) s is out of range"))
            return nil
        }
        return value
    }
}

/// ISO 8601 durations of the form MediaTailor writes (`PT1H2M17.817S`, `P1DT…`), in seconds.
enum ISO8601Duration {
    static func seconds(_ text: String) -> Double? {
        var bytes = Substring(text).utf8[...]
        guard bytes.popFirst() == UInt8(ascii: "P"), !bytes.isEmpty else { return nil }
        var total = 0.0
        var inTime = false
        var number = ""
        var sawComponent = false
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "T"):
                guard !inTime, number.isEmpty else { return nil }
                inTime = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."):
                guard number.utf8.count < 32 else { return nil }
                number.append(Character(Unicode.Scalar(byte)))
            default:
                guard let value = Double(number) else { return nil }
                number = ""
                sawComponent = true
                switch (byte, inTime) {
                case (UInt8(ascii: "D"), false): total += value * 86_400
                case (UInt8(ascii: "H"), true): total += value * 3_600
                case (UInt8(ascii: "M"), true): total += value * 60
                case (UInt8(ascii: "S"), true): total += value
                default: return nil
                }
            }
        }
        guard number.isEmpty, sawComponent, total <= JSONReader.largestNumber / 1000 else { return nil }
        return total
    }
}

extension AdPod {
    /// The pod with every time moved by `offset` (its ads', its events' and their keys'): MediaTailor's DASH live
    /// times, seconds from `MPD@availabilityStartTime`, made dates.
    func shifted(by offset: AdTime) -> AdPod {
        func moved(_ event: TrackingEvent) -> TrackingEvent {
            var event = event
            event.startTime = event.startTime + offset
            event.id.time = Int64(saturating: event.startTime.milliseconds)
            return event
        }
        var pod = self
        pod.startTime = startTime + offset
        pod.trackingEvents = trackingEvents.map(moved)
        pod.ads = ads.map { ad in
            var ad = ad
            ad.startTime = ad.startTime + offset
            ad.trackingEvents = ad.trackingEvents.map(moved)
            return ad
        }
        return pod
    }
}
