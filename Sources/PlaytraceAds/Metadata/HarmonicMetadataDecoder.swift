import PlaytraceCore

/// Decodes the ad metadata JSON of Harmonic's client-side ad tracking (`{"adBreaks": [...], "dataRange": {...}}`).
///
/// Lenient where the reference library is brittle: a break, ad or event with a missing or mistyped field is
/// reported (``AdMetadata/problems``) and skipped, and the others are kept. Only a body that is not JSON, too
/// large, or without a `dataRange` fails as a whole. Unknown fields (`clickTracking`, `adVerifications`, `icons`…)
/// are ignored. Cost is linear in the body's size, within ``AdMetadataLimits``.
///
/// ```swift
/// let metadata = try HarmonicMetadataDecoder().decode(body)
/// for pod in metadata.pods { print(pod.id, pod.ads.count) }
/// ```
public struct HarmonicMetadataDecoder: Sendable {
    public var limits: AdMetadataLimits

    public init(limits: AdMetadataLimits = AdMetadataLimits()) { self.limits = limits }

    /// Milliseconds above which times are dates (ms since 1970) rather than offsets from the content's start:
    /// 1e11 ms is 1973-03-03, while an offset that large would be a content over three years long.
    public static let dateThreshold: Double = 1e11

    /// Decodes one response body.
    /// - Throws: ``AdMetadataError`` when the body is not JSON, too large, not an object, or has no `dataRange`.
    public func decode(_ body: some Collection<UInt8>) throws(AdMetadataError) -> AdMetadata {
        try decode(root: JSONReader.root(of: body, limits: limits))
    }

    /// Decodes a parsed response.
    func decode(root: JSONReader) throws(AdMetadataError) -> AdMetadata {
        var problems: [AdMetadataProblem] = []
        guard let range = root.object("dataRange")?.first,
              let start = range.number("start", problems: &problems),
              let end = range.number("end", problems: &problems) else {
            throw .missingDataRange
        }
        var pods: [AdPod] = []
        var podIDs = IdentifierDeduplicator()
        if let breaks = root.objects("adBreaks", limit: limits.maximumPods, problems: &problems) {
            for reader in breaks {
                if let pod = decodePod(reader, ids: &podIDs, problems: &problems) { pods.append(pod) }
            }
        } else if !root.has("adBreaks") {
            problems.append(AdMetadataProblem(path: "adBreaks", message: "missing: no breaks in this response"))
        }
        pods.sort { $0.startTime < $1.startTime }
        let timeline: AdTimeline = max(start, end) >= Self.dateThreshold ? .programDateTime : .mediaTime
        var dataRange = DataRange(start: AdTime(milliseconds: start), end: AdTime(milliseconds: end))
        dataRange.producerStart = Self.producerTime(range, "prftStart", &problems)
        dataRange.producerEnd = Self.producerTime(range, "prftEnd", &problems)
        return AdMetadata(pods: pods, dataRange: dataRange, timeline: timeline, problems: problems)
    }

    private func decodePod(_ reader: JSONReader, ids: inout IdentifierDeduplicator,
                           problems: inout [AdMetadataProblem]) -> AdPod? {
        guard let start = required(reader, "startTime", &problems),
              let duration = requiredDuration(reader, &problems) else { return nil }
        let id = ids.unique(reader.identifier("id", problems: &problems) ?? "@\(Int64(saturating: start))")
        var pod = AdPod(id: id, startTime: AdTime(milliseconds: start), duration: AdTime(milliseconds: duration))
        pod.producerStartTime = Self.producerTime(reader, "prftStartTime", &problems)
        var adIDs = IdentifierDeduplicator()
        if let ads = reader.objects("ads", limit: limits.maximumAdsPerPod, problems: &problems) {
            for adReader in ads {
                if let ad = decodeAd(adReader, podID: id, ids: &adIDs, problems: &problems) { pod.ads.append(ad) }
            }
        } else if !reader.has("ads") {
            problems.append(AdMetadataProblem(path: reader.path(of: "ads"), message: "missing: the break is listed without ads"))
        }
        pod.ads.sort { $0.startTime < $1.startTime }
        return pod
    }

    private func decodeAd(_ reader: JSONReader, podID: String, ids: inout IdentifierDeduplicator,
                          problems: inout [AdMetadataProblem]) -> Ad? {
        guard let start = required(reader, "startTime", &problems),
              let duration = requiredDuration(reader, &problems) else { return nil }
        let id = ids.unique(reader.identifier("id", problems: &problems) ?? "@\(Int64(saturating: start))")
        var ad = Ad(id: id, startTime: AdTime(milliseconds: start), duration: AdTime(milliseconds: duration),
                    clickThrough: reader.string("clickThrough", problems: &problems))
        ad.producerStartTime = Self.producerTime(reader, "prftStartTime", &problems)
        if let events = reader.objects("trackingEvents", limit: limits.maximumEventsPerAd, problems: &problems) {
            for eventReader in events {
                guard let type = eventReader.string("event", problems: &problems) else {
                    if !eventReader.has("event") {
                        problems.append(AdMetadataProblem(path: eventReader.path(of: "event"), message: "missing: the event is skipped"))
                    }
                    continue
                }
                guard let time = required(eventReader, "startTime", &problems) else { continue }
                let eventDuration = eventReader.number("duration", problems: &problems).map { max($0, 0) } ?? 0
                guard let urls = eventReader.strings("signalingUrls", limit: limits.maximumURLsPerEvent,
                                                     maximumLength: limits.maximumURLLength, problems: &problems) else {
                    if !eventReader.has("signalingUrls") {
                        problems.append(AdMetadataProblem(path: eventReader.path(of: "signalingUrls"), message: "missing: the event is skipped"))
                    }
                    continue
                }
                let eventType = TrackingEventType(rawValue: type)
                // The key is the time as written on the stream's dates: the producer's clock may be placed otherwise
                // from one response to the next, the event stays the same.
                let key = TrackingEventKey(podID: podID, adID: id, event: eventType, time: Int64(saturating: time))
                var event = TrackingEvent(id: key, event: eventType, startTime: AdTime(milliseconds: time),
                                          duration: AdTime(milliseconds: eventDuration), signalingUrls: urls,
                                          urlsOverLimit: eventReader.countOver("signalingUrls", limit: limits.maximumURLsPerEvent))
                event.producerStartTime = Self.producerTime(eventReader, "prftStartTime", &problems)
                ad.trackingEvents.append(event)
            }
        } else if !reader.has("trackingEvents") {
            problems.append(AdMetadataProblem(path: reader.path(of: "trackingEvents"), message: "missing: the ad has no events"))
        }
        ad.trackingEvents = AdEventOrdering.disambiguated(ad.trackingEvents)
        return ad
    }

    /// An optional time on the producer's wall clock (`prftStartTime`, `prftStart`, `prftEnd`: milliseconds since
    /// 1970); `nil`, and said, when it is there but is no such date. Harmonic's web library reads a 0 as absent.
    private static func producerTime(_ reader: JSONReader, _ key: String, _ problems: inout [AdMetadataProblem]) -> AdTime? {
        guard reader.has(key), let value = reader.number(key, problems: &problems), value != 0 else { return nil }
        guard value >= dateThreshold else {
            problems.append(AdMetadataProblem(path: reader.path(of: key), message: "\(value) is no date in milliseconds since 1970: ignored"))
            return nil
        }
        return AdTime(milliseconds: value)
    }

    private func required(_ reader: JSONReader, _ key: String, _ problems: inout [AdMetadataProblem]) -> Double? {
        if let value = reader.number(key, problems: &problems) { return value }
        if !reader.has(key) {
            problems.append(AdMetadataProblem(path: reader.path(of: key), message: "missing: the element is skipped"))
        } else {
            problems.append(AdMetadataProblem(path: reader.path, message: "skipped: its \(key) is unusable"))
        }
        return nil
    }

    private func requiredDuration(_ reader: JSONReader, _ problems: inout [AdMetadataProblem]) -> Double? {
        guard let duration = required(reader, "duration", &problems) else { return nil }
        guard duration >= 0 else {
            problems.append(AdMetadataProblem(path: reader.path(of: "duration"), message: "negative (\(duration)): the element is skipped"))
            return nil
        }
        return duration
    }
}

extension JSONReader {
    /// A single object under `key`, as a one-element list.
    func object(_ key: String) -> [JSONReader]? {
        guard let value = object[key] as? [String: Any] else { return nil }
        return [JSONReader(object: value, path: path(of: key))]
    }
}

/// Orders an ad's events by time and gives each a distinct key: two events of one type at the same millisecond
/// (a duplicate in the metadata) get keys one millisecond apart rather than sharing a fired state.
enum AdEventOrdering {
    static func disambiguated(_ events: [TrackingEvent]) -> [TrackingEvent] {
        var sorted = inTimeOrder(events, \.startTime)
        var used: Set<TrackingEventKey> = []
        for index in sorted.indices {
            while used.contains(sorted[index].id) { sorted[index].id.time += 1 }
            used.insert(sorted[index].id)
        }
        return sorted
    }
}
