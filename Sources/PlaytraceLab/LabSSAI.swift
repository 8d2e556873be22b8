import Foundation
import PlaytraceCore

/// The lab's SSAI sessions and ad metadata: what the breaks of its streams hold, in the two formats client-side ad
/// trackers read — Harmonic's metadata JSON and AWS MediaTailor's tracking JSON — for the on-demand stream and the
/// live one.
///
/// Each ad fills one segment of a break that the stream signals (SCTE-35 DATERANGE and CUE tags). On-demand: the
/// break of ``LabConfiguration/vodBreakStartSegment``. Live: every break whose segments are in the playlist's window
/// at the lab's current time, and only the ads whose segment is already published, so that ads appear while their
/// break is under way, as real servers add them. Every beacon URL points at the lab's beacon sink
/// (`/beacons/<format>/<break>/<ad>/<event>`), and to each of ``LabConfiguration/beaconVendors``.
///
/// Paths:
/// - Harmonic: `GET /ssai/harmonic/<vod|live>/master.m3u8?initSession=true` or `POST` of it → the session's URLs;
///   `GET /ssai/harmonic/<vod|live>/metadata` → the metadata; the stream itself under the same prefix.
/// - MediaTailor: `POST /ssai/mediatailor/v1/session/lab/origin/<vod|live>/master.m3u8` → the session's URLs (its
///   `manifestParams` echoed as their query); `GET /ssai/mediatailor/v1/tracking/lab/origin/<session>` → the
///   tracking JSON, times in seconds from the first segment of the session's first playlist;
///   the stream under `/ssai/mediatailor/v1/master/lab/origin/<vod|live>/`.
struct LabSSAI {
    let configuration: LabConfiguration

    /// A stream the SSAI endpoints front.
    enum Stream: String, CaseIterable, Sendable {
        case vod, live
        /// The stream with interstitials: its stitched break and its interstitials, each an ad break whose ads are
        /// its assets (Harmonic's metadata only).
        case interstitials
        /// The stream whose interstitials' ads come from the lab's VAST server: the metadata lists its stitched
        /// break only (the VAST tracking takes the interstitials).
        case vastInterstitials = "vast-interstitials"

        /// The lab's stream it fronts.
        var kind: LabStreams.Kind {
            switch self {
            case .vod: .vod
            case .live: .live
            case .interstitials: .interstitials
            case .vastInterstitials: .vastInterstitials
            }
        }
    }

    /// One ad of a break: the segment it begins in, and its time.
    struct Slot {
        var id: String
        var segment: Int
        /// Seconds from the stream's first segment.
        var start: Double
        var duration: Double
    }

    /// One break: its segments and the ads listed so far.
    struct Break {
        var id: String
        var firstSegment: Int
        var length: Int
        var ads: [Slot]
        /// Its start, in seconds from the stream's first segment, and its duration.
        var start: Double
        var duration: Double
    }

    /// A break of whole segments, one ad per segment.
    private func stitchedBreak(id: String, firstSegment: Int, length: Int, ads: [Int]) -> Break {
        Break(id: id, firstSegment: firstSegment, length: length,
              ads: ads.map { Slot(id: "ad-\($0 + 1)", segment: firstSegment + $0,
                                  start: Double(firstSegment + $0) * segmentSeconds, duration: segmentSeconds) },
              start: Double(firstSegment) * segmentSeconds, duration: Double(length) * segmentSeconds)
    }

    private var segmentSeconds: Double { Double(configuration.segmentDuration) }

    private func date(ofSegment index: Int) -> StreamDate {
        configuration.startDate + MediaTime(seconds: Double(index) * segmentSeconds)
    }

    private func date(at seconds: Double) -> StreamDate { configuration.startDate + MediaTime(seconds: seconds) }

    // MARK: - Breaks

    /// The live playlist's window at `elapsed` seconds of lab time: its first and latest segments (as the live
    /// playlist lists them).
    func liveWindow(elapsed: Double) -> (first: Int, latest: Int) {
        let latest = max(0, Int((elapsed / segmentSeconds).rounded(.down)) + configuration.liveHistorySegments - 1)
        return (max(0, latest - configuration.liveWindowSegments + 1), latest)
    }

    /// The breaks of a stream at `elapsed` seconds of lab time.
    func breaks(_ stream: Stream, elapsed: Double) -> [Break] {
        switch stream {
        case .vod:
            let first = configuration.vodBreakStartSegment
            let length = configuration.vodBreakLengthSegments
            return [stitchedBreak(id: "break-1", firstSegment: first, length: length, ads: Array(0..<length))]
        case .vastInterstitials:
            let first = configuration.vodBreakStartSegment
            let length = configuration.vodBreakLengthSegments
            return [stitchedBreak(id: "break-1", firstSegment: first, length: length, ads: Array(0..<length))]
        case .interstitials:
            let first = configuration.vodBreakStartSegment
            let length = configuration.vodBreakLengthSegments
            var breaks = [stitchedBreak(id: "break-1", firstSegment: first, length: length, ads: Array(0..<length))]
            for entry in LabInterstitials(configuration: configuration).entries {
                var start = entry.offset
                let ads = entry.assets.enumerated().map { index, asset -> Slot in
                    defer { start += asset.duration }
                    return Slot(id: "ad-\(index + 1)", segment: Int(entry.offset / segmentSeconds), start: start,
                                duration: asset.duration)
                }
                breaks.append(Break(id: entry.id, firstSegment: Int(entry.offset / segmentSeconds), length: 0, ads: ads,
                                    start: entry.offset, duration: entry.assets.reduce(0) { $0 + $1.duration }))
            }
            return breaks.sorted { $0.start < $1.start }
        case .live:
            let (first, latest) = liveWindow(elapsed: elapsed)
            let interval = max(1, configuration.liveAdBreakInterval)
            let length = max(1, min(configuration.liveAdBreakLength, interval - 1))
            var breaks: [Break] = []
            var number = max(0, (first - interval) / interval)
            while number * interval + interval - length <= latest {
                let start = number * interval + interval - length
                if start + length > first {
                    let published = (0..<length).filter { start + $0 <= latest }
                    breaks.append(stitchedBreak(id: "live-break-\(number)", firstSegment: start, length: length, ads: published))
                }
                number += 1
            }
            return breaks
        }
    }

    // MARK: - Harmonic

    private struct HarmonicMetadata: Encodable {
        struct Range: Encodable { var start: Double; var end: Double; var prftStart: Double?; var prftEnd: Double? }
        struct Event: Encodable {
            var event: String; var startTime: Double; var prftStartTime: Double?; var duration: Double; var signalingUrls: [String]
        }
        struct Ad: Encodable { var id: String; var startTime: Double; var prftStartTime: Double?; var duration: Double; var trackingEvents: [Event] }
        struct Break: Encodable { var id: String; var startTime: Double; var prftStartTime: Double?; var duration: Double; var ads: [Ad] }
        var adBreaks: [Break]
        var dataRange: Range
    }

    /// Harmonic's metadata of a stream at `elapsed` seconds of lab time, on the stream's program-date-time
    /// (milliseconds), its beacons sent to `base` (the lab's own address). A DASH session's (`dash`) also gives each
    /// time on the encoder's clock (`prftStartTime`, `prftStart`, `prftEnd`: ``LabConfiguration/producerClockOffset``
    /// later), and its `startTime`s ``LabConfiguration/harmonicDASHStartTimeSkew`` later than the media.
    func harmonic(_ stream: Stream, elapsed: Double, base: String, dash: Bool = false) -> String {
        let skew = dash ? configuration.harmonicDASHStartTimeSkew * 1000 : 0
        func producer(_ milliseconds: Double) -> Double? { dash ? milliseconds + configuration.producerClockOffset * 1000 : nil }
        let adBreaks = breaks(stream, elapsed: elapsed).map { adBreak in
            let ads = adBreak.ads.map { slot -> HarmonicMetadata.Ad in
                let start = date(at: slot.start).millisecondsSince1970
                let length = slot.duration * 1000
                func event(_ name: String, _ fraction: Double, spans: Bool = false) -> HarmonicMetadata.Event {
                    HarmonicMetadata.Event(
                        event: name, startTime: start + fraction * length + skew,
                        prftStartTime: producer(start + fraction * length), duration: spans ? length : 0,
                        signalingUrls: ([base] + configuration.beaconVendors).map {
                            "\($0)/beacons/harmonic/\(adBreak.id)/\(slot.id)/\(name)?cb=[CACHEBUSTING]"
                        })
                }
                var events = [event("impression", 0, spans: true), event("start", 0), event("firstQuartile", 0.25),
                              event("midpoint", 0.5), event("thirdQuartile", 0.75), event("complete", 1)]
                events += ["pause", "resume", "mute", "unmute", "rewind", "skip"].map { event($0, 0, spans: true) }
                return HarmonicMetadata.Ad(id: slot.id, startTime: start + skew, prftStartTime: producer(start), duration: length,
                                           trackingEvents: events)
            }
            let start = date(at: adBreak.start).millisecondsSince1970
            return HarmonicMetadata.Break(id: adBreak.id, startTime: start + skew, prftStartTime: producer(start),
                                          duration: adBreak.duration * 1000, ads: ads)
        }
        let (first, last): (Int, Int) = switch stream {
        case .vod: (0, configuration.vodSegmentCount - 1)
        // The post-roll is dated at the primary's end: the range reaches past it.
        case .interstitials, .vastInterstitials: (0, configuration.interstitialStreamSegmentCount + 1)
        case .live: liveWindow(elapsed: elapsed)
        }
        let (rangeStart, rangeEnd) = (date(ofSegment: first).millisecondsSince1970, date(ofSegment: last + 1).millisecondsSince1970)
        let range = HarmonicMetadata.Range(start: rangeStart + skew, end: rangeEnd + skew,
                                           prftStart: producer(rangeStart), prftEnd: producer(rangeEnd))
        return Self.encode(HarmonicMetadata(adBreaks: adBreaks, dataRange: range))
    }

    /// Harmonic's answer to a session initialisation: the manifest (`master.m3u8`, or `manifest.mpd` for DASH) and
    /// metadata paths of the session `lab-<serial>`, relative to the request (a DASH session's metadata with
    /// `format=dash`).
    static func harmonicSession(serial: Int, manifest: String = "master.m3u8") -> String {
        let format = manifest.hasSuffix(".mpd") ? "&format=dash" : ""
        return #"{"manifestUrl":"./\#(manifest)?sessid=lab-\#(serial)","trackingUrl":"./metadata?sessid=lab-\#(serial)\#(format)"}"#
    }

    /// The lab's DASH presentation an SSAI stream has, if any (the on-demand and live ones).
    static func dashKind(of stream: Stream) -> LabDASH.Kind? {
        switch stream {
        case .vod: .vod
        case .live: .live
        case .interstitials, .vastInterstitials: nil
        }
    }

    // MARK: - MediaTailor

    private struct MediaTailorTracking: Encodable {
        struct Event: Encodable {
            var eventId: String
            var eventType: String
            var beaconUrls: [String]
            var startTimeInSeconds: Double
            var durationInSeconds: Double
            var eventProgramDateTime: String?
        }
        struct BreakEvent: Encodable { var eventType: String; var beaconUrls: [String] }
        struct Ad: Encodable {
            var adId: String
            var adTitle: String
            var creativeId: String
            var adProgramDateTime: String?
            var startTimeInSeconds: Double
            var durationInSeconds: Double
            var skipOffset: String?
            var trackingEvents: [Event]
        }
        struct Avail: Encodable {
            var availId: String
            var availProgramDateTime: String?
            var startTimeInSeconds: Double
            var durationInSeconds: Double
            var adBreakTrackingEvents: [BreakEvent]
            var ads: [Ad]
            var nonLinearAdsList: [String] = []
        }
        var avails: [Avail]
        var nonLinearAvails: [String] = []
        var nextToken: String
        var dashAvailabilityStartTime: String?
        var hlsAnchorMediaSequenceNumber: Int?
    }

    /// A MediaTailor session's path component, `<stream>-<zero>.<serial>` (`dash-<stream>-<zero>.<serial>` for a DASH
    /// session): the stream and the segment its time zero is at (HLS live: the first segment of the live window when
    /// the session began; DASH live counts from `MPD@availabilityStartTime`, segment 0), so that the lab keeps no
    /// session state, and the session's serial number, new at each initialisation.
    func mediaTailorSession(_ stream: Stream, elapsed: Double, serial: Int, dash: Bool = false) -> String {
        if dash { return "dash-\(stream.rawValue)-0.\(serial)" }
        return switch stream {
        case .vod, .interstitials, .vastInterstitials: "\(stream.rawValue)-0.\(serial)"
        case .live: "live-\(liveWindow(elapsed: elapsed).first).\(serial)"
        }
    }

    /// MediaTailor's tracking JSON for a session (``mediaTailorSession(_:elapsed:serial:)``), `nil` for an unknown one.
    /// Times are seconds from the session's time zero; each ad's impression has a second, `about:blank` URL, and a
    /// `clickThrough` (a page to open, never a beacon) points at the sink too.
    func mediaTailor(session: String, elapsed: Double, base: String) -> String? {
        // The serial (after the dot) tells sessions apart; it changes nothing in what they play.
        var place = session.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let isDASH = place.hasPrefix("dash-")
        if isDASH { place = place.dropFirst("dash-".count) }
        guard let dash = place.lastIndex(of: "-"), let stream = Stream(rawValue: String(place[..<dash])),
              let zero = Int(place[place.index(after: dash)...]), zero >= 0, !isDASH || Self.dashKind(of: stream) != nil else {
            return nil
        }
        // Seconds from the session's time zero (its first segment).
        let zeroSeconds = Double(zero) * segmentSeconds
        let avails = breaks(stream, elapsed: elapsed).filter { $0.firstSegment >= zero }.map { adBreak in
            let sink = "\(base)/beacons/mediatailor/\(adBreak.id)"
            let ads = adBreak.ads.map { slot -> MediaTailorTracking.Ad in
                let start = slot.start - zeroSeconds
                func event(_ name: String, _ fraction: Double, urls: [String]? = nil) -> MediaTailorTracking.Event {
                    MediaTailorTracking.Event(
                        eventId: "\(slot.segment)", eventType: name,
                        beaconUrls: urls ?? ([base] + configuration.beaconVendors).map {
                            "\($0)/beacons/mediatailor/\(adBreak.id)/\(slot.id)/\(name)"
                        },
                        startTimeInSeconds: start + fraction * slot.duration,
                        durationInSeconds: name == "impression" ? slot.duration : 0)
                }
                var events = [event("impression", 0, urls: ["\(sink)/\(slot.id)/impression", "about:blank"]),
                              event("start", 0), event("firstQuartile", 0.25), event("midpoint", 0.5),
                              event("thirdQuartile", 0.75), event("complete", 1)]
                events += ["pause", "resume", "mute", "unmute"].map { event($0, 0) }
                events.append(event("clickThrough", 0, urls: ["\(base)/beacons/mediatailor/click-through"]))
                return MediaTailorTracking.Ad(
                    adId: "\(slot.segment)", adTitle: "Lab ad \(slot.id)", creativeId: "creative-\(slot.id)",
                    adProgramDateTime: date(at: slot.start).iso8601Milliseconds, startTimeInSeconds: start,
                    durationInSeconds: slot.duration, skipOffset: nil, trackingEvents: events)
            }
            return MediaTailorTracking.Avail(
                availId: adBreak.id, availProgramDateTime: date(at: adBreak.start).iso8601Milliseconds,
                startTimeInSeconds: adBreak.start - zeroSeconds, durationInSeconds: adBreak.duration,
                adBreakTrackingEvents: ["breakStart", "breakEnd"].map {
                    MediaTailorTracking.BreakEvent(eventType: $0, beaconUrls: ["\(sink)/-/\($0)"])
                },
                ads: ads)
        }
        // A DASH live session's times count from the MPD's availabilityStartTime, which the response states.
        let availabilityStart = isDASH && stream == .live
            ? LabDASH(configuration: configuration, base: base).availabilityStartTime.iso8601Milliseconds : nil
        return Self.encode(MediaTailorTracking(avails: avails, nextToken: "lab-\(Int(elapsed))",
                                               dashAvailabilityStartTime: availabilityStart,
                                               hlsAnchorMediaSequenceNumber: nil))
    }

    /// MediaTailor's answer to a session initialisation: the manifest and tracking paths of the session, with the
    /// request's `manifestParams` as their query.
    func mediaTailorSessionAnswer(_ stream: Stream, elapsed: Double, serial: Int,
                                  manifestParams: [String: String], dash: Bool = false) -> String {
        var query = URLComponents()
        query.queryItems = manifestParams.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        let session = mediaTailorSession(stream, elapsed: elapsed, serial: serial, dash: dash)
        let manifest = dash ? "/ssai/mediatailor/v1/dash/lab/origin/\(stream.rawValue)/manifest.mpd"
            : "/ssai/mediatailor/v1/master/lab/origin/\(stream.rawValue)/master.m3u8"
        let extra = query.percentEncodedQuery.map { "&\($0)" } ?? ""
        let trackingQuery = query.percentEncodedQuery.map { "?\($0)" } ?? ""
        return Self.encode([
            "manifestUrl": "\(manifest)?aws.sessionId=\(session)\(extra)",
            "trackingUrl": "/ssai/mediatailor/v1/tracking/lab/origin/\(session)\(trackingQuery)",
        ])
    }

    private static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
