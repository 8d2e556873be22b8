import Foundation
public import PlaytraceCore

/// Decodes SVTA2053 ad creative signaling: the base64 JSON of an `X-AD-CREATIVE-SIGNALING` attribute (MediaTailor's
/// ad-ID `EXT-X-DATERANGE`, `CLASS="urn:sva:advertising-wg:ad-id-signaling"`), so that the stream's own manifest is
/// the beacon source — no tracking API.
///
/// The carriage envelope is `{"version", "type": "slot" | "pod", "payload": [...]}`. A slot is one ad: `start` and
/// `duration` in seconds from the date range's `START-DATE`, `identifiers` (`scheme`, `value`), and `tracking`
/// (`type`, `offset` in seconds for `progress`, `urls`). A pod has its own `start`, `duration`, `tracking`
/// (`podstart`/`podend` as breakStart/breakEnd) and `slots`. Each becomes an ad break on a program-date-time timeline;
/// a bad element is a problem, the rest is kept.
///
/// ```swift
/// let metadata = AdCreativeSignalingDecoder().decode(base64: attribute, id: range.id, date: range.startDate)
/// ```
public struct AdCreativeSignalingDecoder: Sendable {
    /// The `CLASS` of MediaTailor's ad-ID signaling date ranges.
    public static let adIDClass = "urn:sva:advertising-wg:ad-id-signaling"
    /// The attribute that carries the signaling.
    public static let attribute = "X-AD-CREATIVE-SIGNALING"

    public var limits: AdMetadataLimits

    public init(limits: AdMetadataLimits = AdMetadataLimits()) { self.limits = limits }

    /// The breaks one date range's signaling describes, at `date` (its `START-DATE`); `id` names them.
    public func decode(base64: String, id: String, date: StreamDate) -> (pods: [AdPod], problems: [AdMetadataProblem]) {
        // Base64 is at most 4/3 of the JSON: a value past the limit is refused before decoding.
        guard base64.utf8.count <= limits.maximumBodyBytes / 3 * 4 + 4 else {
            return ([], [AdMetadataProblem(path: id, message: "the signaling is larger than \(limits.maximumBodyBytes) bytes")])
        }
        var text = base64.trimmingWhitespace()
        // base64url and missing padding are read too.
        text = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        if text.utf8.count % 4 != 0 { text += String(repeating: "=", count: 4 - text.utf8.count % 4) }
        guard let data = Data(base64Encoded: text) else {
            return ([], [AdMetadataProblem(path: id, message: "X-AD-CREATIVE-SIGNALING is not base64")])
        }
        return decode(json: data, id: id, date: date, carrier: "X-AD-CREATIVE-SIGNALING")
    }

    /// The breaks a signaling JSON document describes, at `date`, as an MPD's `EventStream` event carries it (its
    /// text, not base64); `carrier` names where it came from in problems.
    func decode(json data: Data, id: String, date: StreamDate, carrier: String = "the signaling")
        -> (pods: [AdPod], problems: [AdMetadataProblem]) {
        var problems: [AdMetadataProblem] = []
        let root: JSONReader
        do {
            root = try JSONReader.root(of: data, limits: limits)
        } catch {
            return ([], [AdMetadataProblem(path: id, message: "\(carrier): \(error)")])
        }
        let base = AdTime(date)
        let type = root.string("type", problems: &problems) ?? "slot"
        guard let payload = root.objects("payload", limit: limits.maximumAdsPerPod, problems: &problems) else {
            problems.append(AdMetadataProblem(path: "\(id).payload", message: "missing: nothing to track"))
            return ([], problems)
        }
        if type == "pod" {
            var pods: [AdPod] = []
            for (index, reader) in payload.enumerated() {
                let podID = payload.count == 1 ? id : "\(id)#\(index + 1)"
                let start = base + AdTime(milliseconds: (reader.number("start", problems: &problems) ?? 0) * 1000)
                let slots = reader.objects("slots", limit: limits.maximumAdsPerPod, problems: &problems) ?? []
                var pod = decodeSlots(slots, podID: podID, base: start, problems: &problems)
                if let duration = reader.number("duration", problems: &problems), duration >= 0 {
                    pod.duration = max(pod.duration, AdTime(milliseconds: duration * 1000))
                }
                pod.trackingEvents = events(reader, podID: podID, adID: nil, start: start, duration: pod.duration,
                                            problems: &problems)
                pods.append(pod)
            }
            return (pods, problems)
        }
        if type != "slot" {
            problems.append(AdMetadataProblem(path: root.path(of: "type"), message: "unknown type \(type): read as slots"))
        }
        return ([decodeSlots(payload, podID: id, base: base, problems: &problems)], problems)
    }

    private func decodeSlots(_ slots: [JSONReader], podID: String, base: AdTime, problems: inout [AdMetadataProblem]) -> AdPod {
        var ads: [Ad] = []
        var ids = IdentifierDeduplicator()
        var end = base
        for (index, slot) in slots.enumerated() {
            guard let duration = slot.number("duration", problems: &problems), duration >= 0 else {
                problems.append(AdMetadataProblem(path: slot.path, message: "skipped: the slot has no usable duration"))
                continue
            }
            let start = base + AdTime(milliseconds: (slot.number("start", problems: &problems) ?? 0) * 1000)
            let identifier = (slot.objects("identifiers", limit: 16, problems: &problems) ?? []).first
                .flatMap { $0.string("value", problems: &problems) }
            let adID = ids.unique(identifier.map { $0.isEmpty ? "ad-\(index + 1)" : $0 } ?? "ad-\(index + 1)")
            let length = AdTime(milliseconds: duration * 1000)
            ads.append(Ad(id: adID, startTime: start, duration: length,
                          trackingEvents: events(slot, podID: podID, adID: adID, start: start, duration: length, problems: &problems),
                          clickThrough: slot.string("clickThrough", problems: &problems)))
            end = max(end, start + length)
        }
        ads.sort { $0.startTime < $1.startTime }
        let start = ads.first.map { min($0.startTime, base) } ?? base
        return AdPod(id: podID, startTime: start, duration: end - start, ads: ads)
    }

    /// The tracking of a slot (or a pod): quartiles and complete at their share of the duration, progress at its
    /// offset, the rest at the start.
    private func events(_ reader: JSONReader, podID: String, adID: String?, start: AdTime, duration: AdTime,
                        problems: inout [AdMetadataProblem]) -> [TrackingEvent] {
        var events: [TrackingEvent] = []
        var keys = Set<TrackingEventKey>()
        for tracking in reader.objects("tracking", limit: limits.maximumEventsPerAd, problems: &problems) ?? [] {
            guard let name = tracking.string("type", problems: &problems),
                  let urls = tracking.strings("urls", limit: limits.maximumURLsPerEvent,
                                              maximumLength: limits.maximumURLLength, problems: &problems), !urls.isEmpty else {
                continue
            }
            let type: TrackingEventType = switch name {
            case "podstart": .breakStart
            case "podend": .breakEnd
            default: TrackingEventType(rawValue: name)
            }
            var time = start
            var span = AdTime.zero
            switch type {
            case .firstQuartile: time = start + duration * 0.25
            case .midpoint: time = start + duration * 0.5
            case .thirdQuartile: time = start + duration * 0.75
            case .complete, .breakEnd: time = start + duration
            case .progress:
                guard let offset = tracking.number("offset", problems: &problems), offset >= 0,
                      AdTime(milliseconds: offset * 1000) <= duration else {
                    problems.append(AdMetadataProblem(path: tracking.path, message: "skipped: a progress without an offset inside the ad"))
                    continue
                }
                time = start + AdTime(milliseconds: offset * 1000)
            case .impression: span = duration
            default: if type.kind == .playerInitiated { span = duration }
            }
            let key = TrackingEventKey(podID: podID, adID: adID, event: type, time: Int64(saturating: time.milliseconds))
            guard keys.insert(key).inserted else {
                if let index = events.firstIndex(where: { $0.id == key }) {
                    events[index].signalingUrls += urls
                    events[index].urlsOverLimit += tracking.countOver("urls", limit: limits.maximumURLsPerEvent)
                }
                continue
            }
            events.append(TrackingEvent(id: key, event: type, startTime: time, duration: span, signalingUrls: urls,
                                        urlsOverLimit: tracking.countOver("urls", limit: limits.maximumURLsPerEvent)))
        }
        return events
    }
}
