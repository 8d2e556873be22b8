import Foundation
import PlaytraceCore
import PlaytraceDASH
import PlaytraceHLS

/// The lab's MPEG-DASH presentations, the same content as its HLS streams (the ladder's rungs as video
/// representations, one audio representation, synthetic segments of each rung's size; with real media, the live
/// presentations' segments are its content as fragmented MP4, looped: ``LabServer/loopedFragment(representation:number:eventMessage:)``):
/// - `/dash/vod/manifest.mpd`: on demand, three periods as an SSAI server writes them (content, an ad period with its
///   own `BaseURL` and numbering, content again), addressed by `SegmentTemplate` with `$Number$` and `@duration`,
///   the ad period's first event a SCTE-35 `splice_insert` out of the network (`urn:scte:scte35:2014:xml+bin`), as
///   MediaTailor recognises an avail, and its ads signalled in SVTA2053 events
///   (`urn:svta:advertising-wg:ad-creative-signaling`, the JSON of the HLS stream's ad-ID date ranges);
/// - `/dash/live/manifest.mpd` and `/dash/dvr/manifest.mpd`: live, driven by the lab's clock, addressed by
///   `SegmentTimeline` (one `S` with `@r`) and `$Number$`, a SCTE-35 event at each ad break in the window, updated
///   every segment (`minimumUpdatePeriod`), the clock given by `UTCTiming` (http-iso at `/dash/time`);
/// - `/dash/list/manifest.mpd`: on demand, one period, addressed by `SegmentList` (one `SegmentURL` per segment);
/// - `/dash/emsg/manifest.mpd`: live as `/dash/live/`, its breaks signalled in-band: each break's first segment starts
///   with an `emsg` (SCTE-35 `splice_insert`, `urn:scte:scte35:2013:bin`, declared by `InbandEventStream`);
/// - `/dash/emsg-signaling/manifest.mpd`: the same, each break's `emsg` SVTA2053 ad creative signaling instead
///   (`urn:svta:advertising-wg:ad-creative-signaling`: one ad as long as the break, beaconing under
///   `/beacons/signaling/emsg/<segment>/`);
/// - `/dash/redundant/manifest.mpd`: the on-demand presentation at two locations, `/dash/vod/` and
///   `/dash-backup/vod/` (two MPD-level `BaseURL`s, the second for failover).
///
/// Time: a live presentation's `availabilityStartTime` is ``LabConfiguration/startDate``, where the HLS live stream's
/// segment 0 is dated, so that segment n spans [n × d, (n + 1) × d) on the MPD's timeline and has the HLS segment n's
/// date; its wall clock (`/dash/time`) is that of the HLS stream's dates, ``LabConfiguration/liveHistorySegments``
/// segments ahead of the start date when the lab starts, so that the newest complete segment is the HLS live
/// playlist's last. A client that takes its own clock instead of `UTCTiming` finds nothing (the start date is not
/// today): as with a real origin whose clock is off, the MPD says which clock to trust. The live encoder's own clock
/// runs ``LabConfiguration/producerClockOffset`` ahead of those dates: each live segment's `prft` box dates its first
/// sample on it, and so does the MPD's `ProducerReferenceTime` for the window's first segment.
struct LabDASH: Sendable {
    let configuration: LabConfiguration
    /// The lab's base URL, for `UTCTiming` (an absolute URL, as its grammar requires).
    let base: String
    /// The SSAI session the MPD is served for, if any.
    var session: SessionManifest?

    /// The kinds of presentation, by path.
    enum Kind: String, Sendable, CaseIterable {
        case vod, live, dvr, list
        /// Live, its breaks signalled in the segments (`emsg`), not in the MPD.
        case emsg
        /// Live, its breaks' ads signalled in the segments (SVTA2053 in `emsg`), not in the MPD.
        case emsgSignaling = "emsg-signaling"
    }

    /// The presentations driven by the lab's clock; with real media, their segments loop the content's.
    static let liveKinds: Set<Kind> = [.live, .dvr, .emsg, .emsgSignaling]

    static let contentType = "application/dash+xml"
    static let audioBandwidth = 128_000
    static let audioID = "audio"

    private var duration: Int { configuration.segmentDuration }

    /// A representation's id: `v<rung>` for video, `audio`.
    static func videoID(_ rung: Int) -> String { "v\(rung)" }

    /// The bandwidth of a representation id, `nil` when there is none.
    func bandwidth(of representation: String) -> Int? {
        if representation == Self.audioID { return Self.audioBandwidth }
        guard representation.hasPrefix("v"), let rung = Int(representation.dropFirst()),
              configuration.variants.indices.contains(rung) else { return nil }
        return configuration.variants[rung].bandwidth
    }

    /// The size of one segment of a representation, in bytes.
    func segmentSize(_ representation: String) -> Int? {
        bandwidth(of: representation).map { $0 * duration / 8 }
    }

    // MARK: - Time

    /// The live presentations' wall clock, as the HLS live stream's dates tell it: its newest segment ends now.
    func now(elapsed: Double) -> StreamDate {
        StreamDate(secondsSince1970: configuration.startDate.secondsSince1970
                   + Double(configuration.liveHistorySegments * duration) + elapsed)
    }

    /// `MPD@availabilityStartTime` of the live presentations: the start date, where the HLS live stream's segment 0
    /// is dated.
    var availabilityStartTime: StreamDate { configuration.startDate }

    /// The number of the newest complete live segment (as the HLS live playlist's last).
    func liveLatest(elapsed: Double) -> Int {
        max(0, Int((elapsed / Double(duration)).rounded(.down)) + configuration.liveHistorySegments - 1)
    }

    /// Whether a segment of `kind` exists now.
    func segmentExists(_ kind: Kind, number: Int, elapsed: Double) -> Bool {
        switch kind {
        case .vod: number >= 1 && number <= configuration.vodSegmentCount - configuration.vodBreakLengthSegments
        case .list: number >= 0 && number < configuration.vodSegmentCount
        case .live, .dvr, .emsg, .emsgSignaling: number >= 0 && number <= liveLatest(elapsed: elapsed)
        }
    }

    // MARK: - Documents

    /// The MPD of `kind`; as an SSAI server serves it under another path when `session` is given.
    func manifest(_ kind: Kind, elapsed: Double, session: SessionManifest? = nil) -> String {
        var served = self
        served.session = session
        return switch kind {
        case .vod: served.onDemand()
        case .list: served.segmentList()
        case .live, .dvr, .emsg, .emsgSignaling: served.live(kind, elapsed: elapsed)
        }
    }

    /// How a presentation is served under another path (an SSAI session's, or with redundant locations): where its
    /// segments are, and its own URL.
    struct SessionManifest: Sendable {
        /// The directories of the lab's segments of the presentation (`/dash/vod/`), from the root: the first to
        /// request, the others to fail over to.
        var segmentsBases: [String]
        /// The session's manifest URL, given as the MPD's `Location`.
        var location: String?
    }

    /// Text made safe inside an XML element.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// Content, an ad period, content: the ad period replaces `vodBreakLengthSegments` segments of content (the
    /// presentation keeps the HLS stream's length), and content numbering resumes after the content before it.
    private func onDemand() -> String {
        let total = configuration.vodSegmentCount
        let breakStart = configuration.vodBreakStartSegment
        let breakLength = configuration.vodBreakLengthSegments
        let first = breakStart * duration, ad = breakLength * duration, rest = (total - breakStart - breakLength) * duration
        let splice = Data(SpliceInfoSectionEncoder.spliceInsert(
            eventID: 1, isOutOfNetwork: true, ptsTime: UInt64(first) * 90_000,
            breakDuration: UInt64(ad) * 90_000)).base64EncodedString()
        // Anchored to the lab's start date, as the HLS stream's program date-time is.
        let attributes = #"availabilityStartTime="\#(configuration.startDate.iso8601)" mediaPresentationDuration="PT\#(total * duration)S""#
        return header("static", attributes: attributes)
            + """
              <Period id="content-1" start="PT0S" duration="PT\(first)S">
            \(sets(template: #"<SegmentTemplate media="$RepresentationID$/$Number$.m4s" initialization="$RepresentationID$/init.mp4" timescale="1" duration="\#(duration)" startNumber="1"/>"#))
              </Period>
              <Period id="content-1_1" start="PT\(first)S" duration="PT\(ad)S">
                <BaseURL>../ads/</BaseURL>
                <EventStream schemeIdUri="urn:scte:scte35:2014:xml+bin" timescale="90000">
                  <Event presentationTime="0" duration="\(ad * 90_000)" id="1">
                    <scte35:Signal><scte35:Binary>\(splice)</scte35:Binary></scte35:Signal>
                  </Event>
                </EventStream>
                <EventStream schemeIdUri="urn:svta:advertising-wg:ad-creative-signaling" timescale="90000">
            \(signalingEvents(ads: breakLength))
                </EventStream>
            \(sets(template: #"<SegmentTemplate media="$RepresentationID$/$Number$.m4s" initialization="$RepresentationID$/init.mp4" timescale="90000" duration="\#(duration * 90_000)" startNumber="1"/>"#))
              </Period>
              <Period id="content-2" start="PT\(first + ad)S" duration="PT\(rest)S">
            \(sets(template: #"<SegmentTemplate media="$RepresentationID$/$Number$.m4s" initialization="$RepresentationID$/init.mp4" timescale="1" duration="\#(duration)" startNumber="\#(breakStart + 1)"/>"#))
              </Period>
            </MPD>

            """
    }

    /// The ad period's SVTA2053 signaling: an event per ad (one per segment), its JSON the slot the HLS stream's
    /// ad-ID date ranges carry, beaconing under `/beacons/signaling/dash/`.
    private func signalingEvents(ads: Int) -> String {
        (1...max(1, ads)).map { ad in
            let json = String(decoding: LabSignaling.slot(ad: ad, duration: Double(duration),
                                                          sink: "\(base)/beacons/signaling/dash/break-1/ad-\(ad)"), as: UTF8.self)
            return #"      <Event presentationTime="\#((ad - 1) * duration * 90_000)" duration="\#(duration * 90_000)" id="ad-\#(ad)">\#(Self.escaped(json))</Event>"#
        }.joined(separator: "\n")
    }

    private func segmentList() -> String {
        let total = configuration.vodSegmentCount
        let urls = (0..<total).map { #"      <SegmentURL media="v0/\#($0).m4s"/>"# }.joined(separator: "\n")
        return header("static", attributes: #"mediaPresentationDuration="PT\#(total * duration)S""#)
            + """
              <Period id="list" start="PT0S">
                <AdaptationSet id="1" contentType="video" mimeType="video/mp4">
                  <Representation id="v0" bandwidth="\(configuration.variants[0].bandwidth)" codecs="\(configuration.variants[0].videoCodec)" width="\(configuration.variants[0].width)" height="\(configuration.variants[0].height)">
                    <SegmentList timescale="1" duration="\(duration)">
                      <Initialization sourceURL="v0/init.mp4"/>
            \(urls)
                    </SegmentList>
                  </Representation>
                </AdaptationSet>
              </Period>
            </MPD>

            """
    }

    /// The window of `liveWindowSegments` (live) or `dvrWindowSegments` (DVR) up to the newest complete segment,
    /// and a SCTE-35 event at each ad break that starts in it.
    private func live(_ kind: Kind, elapsed: Double) -> String {
        let window = kind == .dvr ? configuration.dvrWindowSegments : configuration.liveWindowSegments
        let latest = liveLatest(elapsed: elapsed)
        let first = max(0, latest - window + 1)
        let length = breakLength
        var events = ""
        for number in first...latest where opensBreak(number) {
            let splice = Data(splice(opening: number)).base64EncodedString()
            events += """
                      <Event presentationTime="\(number * duration * 90_000)" duration="\(length * duration * 90_000)" id="\(number)">
                        <scte35:Signal><scte35:Binary>\(splice)</scte35:Binary></scte35:Signal>
                      </Event>

                """
        }
        let timeline = #"<SegmentTimeline><S t="\#(first * duration)" d="\#(duration)" r="\#(latest - first)"/></SegmentTimeline>"#
        let template = #"<SegmentTemplate media="$RepresentationID$/$Number$.m4s" initialization="$RepresentationID$/init.mp4" timescale="1" startNumber="\#(first)">\#(timeline)</SegmentTemplate>"#
        let attributes = """
            availabilityStartTime="\(availabilityStartTime.iso8601)" publishTime="\(now(elapsed: elapsed).iso8601)" \
            minimumUpdatePeriod="PT\(duration)S" timeShiftBufferDepth="PT\(window * duration)S" \
            suggestedPresentationDelay="PT\(3 * duration)S" maxSegmentDuration="PT\(duration)S"
            """
        // The emsg presentations declare their in-band events instead of listing them.
        let scheme = Self.inbandScheme(kind)
        let signals = scheme != nil
            ? ""
            : """
                <EventStream schemeIdUri="urn:scte:scte35:2014:xml+bin" timescale="90000">
            \(events)    </EventStream>
            """
        let inband = scheme.map { #"<InbandEventStream schemeIdUri="\#($0)" value=""/>"# } ?? ""
        return header("dynamic", attributes: attributes)
            + """
              <UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-iso:2014" value="\(base)/dash/time"/>
              <Period id="live" start="PT0S">
            \(signals)
            \(sets(template: inband + producerReferenceElement(first: first) + template))
              </Period>
            </MPD>

            """
    }

    // MARK: - Breaks

    /// The scheme of an emsg presentation's in-band events: SCTE-35, or SVTA2053 ad creative signaling.
    static func inbandScheme(_ kind: Kind) -> String? {
        switch kind {
        case .emsg: "urn:scte:scte35:2013:bin"
        case .emsgSignaling: "urn:svta:advertising-wg:ad-creative-signaling"
        case .vod, .live, .dvr, .list: nil
        }
    }

    private var breakInterval: Int { max(1, configuration.liveAdBreakInterval) }
    private var breakLength: Int { max(1, min(configuration.liveAdBreakLength, breakInterval - 1)) }

    /// Whether a live segment opens a break (as the HLS live stream's breaks).
    func opensBreak(_ number: Int) -> Bool { number % breakInterval == breakInterval - breakLength }

    /// The `splice_insert` out of the network that opens the break at segment `number`.
    func splice(opening number: Int) -> [UInt8] {
        SpliceInfoSectionEncoder.spliceInsert(
            eventID: UInt32(truncatingIfNeeded: number), isOutOfNetwork: true, ptsTime: UInt64(number * duration) * 90_000,
            breakDuration: UInt64(breakLength * duration) * 90_000)
    }

    /// The `emsg` box (version 1, on a 90 kHz timescale) that an emsg presentation's segment `number` starts with
    /// when it opens a break (the break's `splice_insert`, or its ad's signaling); `nil` for the others.
    func eventMessage(_ kind: Kind, segment number: Int) -> [UInt8]? {
        guard let scheme = Self.inbandScheme(kind), opensBreak(number) else { return nil }
        var payload: [UInt8] = [1, 0, 0, 0]
        payload += Self.uint32(90_000) + Self.uint64(UInt64(number * duration) * 90_000)
            + Self.uint32(UInt32(breakLength * duration) * 90_000)
        payload += Self.uint32(UInt32(truncatingIfNeeded: number))
        payload += Array(scheme.utf8) + [0] + [0]
        if kind == .emsgSignaling {
            payload += LabSignaling.slot(ad: number, duration: Double(breakLength * duration),
                                         sink: "\(base)/beacons/signaling/emsg/\(number)")
        } else {
            payload += splice(opening: number)
        }
        return Self.box("emsg", payload)
    }

    // MARK: - The producer's clock

    /// When the encoder made the start of live segment `number`, on its own clock: the segment's date (as the HLS
    /// segment's) plus ``LabConfiguration/producerClockOffset``.
    func producerDate(ofSegment number: Int) -> StreamDate {
        availabilityStartTime + MediaTime(seconds: Double(number * duration) + configuration.producerClockOffset)
    }

    /// The `prft` box (version 1) that dates a live segment's first sample, whose decode time is `decodeTime`, on the
    /// encoder's clock.
    func producerReference(segment number: Int, decodeTime: UInt64) -> [UInt8] {
        let ntp = ProducerReferenceTimeBox.ntpTimestamp(of: producerDate(ofSegment: number))
        let payload: [UInt8] = [1, 0, 0, 0] + Self.uint32(1) + Self.uint64(ntp) + Self.uint64(decodeTime)
        return Self.box("prft", payload)
    }

    /// A movie fragment's header for a synthetic live segment: one track fragment whose `tfdt` (version 1) is
    /// `decodeTime`, so that its `prft` has a sample to date.
    static func fragmentHeader(decodeTime: UInt64) -> [UInt8] {
        box("moof", box("traf", box("tfdt", [1, 0, 0, 0] + uint64(decodeTime))))
    }

    /// The `ProducerReferenceTime` of a live MPD: the encoder's wall clock at the window's first segment.
    private func producerReferenceElement(first number: Int) -> String {
        #"<ProducerReferenceTime id="0" inband="true" type="encoder" presentationTime="\#(number * duration)" wallClockTime="\#(producerDate(ofSegment: number).iso8601Milliseconds)"/>"#
    }

    private static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { uint32(UInt32(8 + payload.count)) + Array(type.utf8) + payload }
    private static func uint32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }
    private static func uint64(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }

    private func header(_ type: String, attributes: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" xmlns:scte35="http://www.scte.org/schemas/35/2016"
             profiles="urn:mpeg:dash:profile:isoff-live:2011" type="\(type)" minBufferTime="PT\(duration)S"
             \(attributes)>
        \(sessionElements)
        """
    }

    /// A session's MPD names the lab's segments from the session's own path (an MPD-level `BaseURL`) and, as
    /// MediaTailor's do by default, its own absolute URL as its `Location`.
    private var sessionElements: String {
        guard let session else { return "" }
        var elements = session.segmentsBases.map { "  <BaseURL>\(Self.escaped($0))</BaseURL>\n" }.joined()
        if let location = session.location { elements += "  <Location>\(Self.escaped(location))</Location>\n" }
        return elements
    }

    /// A video set of the ladder's rungs and an audio set, both under `template`.
    private func sets(template: String) -> String {
        let video = configuration.variants.indices.map { rung in
            let variant = configuration.variants[rung]
            return #"      <Representation id="\#(Self.videoID(rung))" bandwidth="\#(variant.bandwidth)" codecs="\#(variant.videoCodec)" width="\#(variant.width)" height="\#(variant.height)"/>"#
        }.joined(separator: "\n")
        return """
                <AdaptationSet id="1" contentType="video" mimeType="video/mp4" segmentAlignment="true" startWithSAP="1">
                  \(template)
            \(video)
                </AdaptationSet>
                <AdaptationSet id="2" contentType="audio" mimeType="audio/mp4" codecs="mp4a.40.2" lang="en" segmentAlignment="true">
                  <Role schemeIdUri="urn:mpeg:dash:role:2011" value="main"/>
                  \(template)
                  <Representation id="\(Self.audioID)" bandwidth="\(Self.audioBandwidth)" audioSamplingRate="48000"/>
                </AdaptationSet>
            """
    }
}
