import Foundation
@testable import PlaytraceAds
import PlaytraceCore
import PlaytraceDASH
import PlaytraceTestSupport
import Testing

@Suite("SVTA2053 ad creative signaling", .serialized)
@MainActor
struct AdCreativeSignalingTests {
    private func base64(_ object: [String: Any]) throws -> String {
        try JSONSerialization.data(withJSONObject: object).base64EncodedString()
    }

    @Test("Slots and pods: ads at their offsets from START-DATE, quartiles by duration, progress at its offset, pod events")
    func decoding() throws {
        let date = StreamDate(secondsSince1970: 1_000)
        let slot: [String: Any] = ["start": 2, "duration": 10, "identifiers": [["scheme": "s", "value": "creative-7"]],
                                   "tracking": [["type": "impression", "urls": ["https://t/i"]], ["type": "midpoint", "urls": ["https://t/m"]],
                                                ["type": "progress", "offset": 3, "urls": ["https://t/p"]],
                                                ["type": "progress", "offset": 30, "urls": ["https://t/never"]]]]
        let decoded = AdCreativeSignalingDecoder().decode(base64: try base64(["version": 2, "type": "slot", "payload": [slot]]),
                                                          id: "r1", date: date)
        let ad = try #require(decoded.pods.first?.ads.first)
        #expect(ad.id == "creative-7" && ad.startTime == 1_002_000 && ad.duration == 10_000)
        #expect(ad.trackingEvents.map { "\($0.event)@\(Int($0.startTime.milliseconds) - 1_002_000)" } == ["impression@0", "midpoint@5000", "progress@3000"])
        #expect(decoded.problems.count == 1, "the progress past the ad's end is a problem: \(decoded.problems)")

        let pod: [String: Any] = ["start": 0, "duration": 20, "slots": [slot, slot],
                                  "tracking": [["type": "podstart", "urls": ["https://t/ps"]], ["type": "podend", "urls": ["https://t/pe"]]]]
        let url = try base64(["version": 2, "type": "pod", "payload": [pod]])
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        let pods = AdCreativeSignalingDecoder().decode(base64: url, id: "r2", date: date).pods
        #expect(pods.count == 1 && pods[0].ads.map(\.id) == ["creative-7", "creative-7#2"], "base64url without padding is read")
        #expect(pods[0].trackingEvents.map(\.event) == [.breakStart, .breakEnd] && pods[0].duration == 20_000)

        #expect(AdCreativeSignalingDecoder().decode(base64: "%%%", id: "bad", date: date).pods.isEmpty)
        #expect(AdCreativeSignalingDecoder().decode(base64: Data("[1]".utf8).base64EncodedString(), id: "x", date: date).problems.count == 1)
    }

    @Test("In an MPD: ad-ID and ad-creative signaling events (SVTA's and MediaTailor's scheme names), dated by the MPD")
    func mpdEvents() throws {
        let slot = String(decoding: try JSONSerialization.data(withJSONObject: [
            "version": 2, "type": "slot",
            "payload": [["start": 0, "duration": 4, "identifiers": [["scheme": "s", "value": "creative-1"]],
                         "tracking": [["type": "impression", "urls": ["https://t/i"]]]]],
        ] as [String: Any]), as: UTF8.self)
        func mpd(_ anchor: String) -> String {
            """
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" \(anchor) mediaPresentationDuration="PT20S">
              <Period id="ad" start="PT10S">
                <EventStream schemeIdUri="urn:svta:advertising-wg:ad-creative-signaling" timescale="1000" presentationTimeOffset="500">
                  <Event presentationTime="2500" duration="4000" id="a1">\(slot)</Event>
                </EventStream>
                <EventStream schemeIdUri="urn:sva:advertising-wg:ad-id-signaling" timescale="1">
                  <Event presentationTime="6" id="a2">\(slot)</Event>
                  <Event presentationTime="8" id="a3">not json</Event>
                </EventStream>
                <EventStream schemeIdUri="urn:example:other"><Event presentationTime="1">\(slot)</Event></EventStream>
                <AdaptationSet mimeType="video/mp4"><SegmentTemplate media="$Number$.m4s" duration="2"/>
                  <Representation id="v" bandwidth="1"/></AdaptationSet>
              </Period>
            </MPD>
            """
        }
        let url = try #require(URL(string: "https://origin.example/manifest.mpd"))
        let reader = DASHSignalingReader(decoder: AdCreativeSignalingDecoder())
        let dated = reader.metadata(of: ResolvedPresentation(try MPDParser().parse(Data(mpd(#"availabilityStartTime="1970-01-01T00:16:40Z""#).utf8)), url: url))
        // 1,000 s (the anchor) + 10 s (the period) + (2,500 - 500) / 1,000 s; then + 6 s.
        #expect(dated.pods.map(\.id) == ["ad/a1", "ad/a2"])
        #expect(dated.pods.map { $0.startTime.milliseconds } == [1_012_000, 1_016_000])
        #expect(dated.problems.count == 1, "the event that is not JSON: \(dated.problems)")
        #expect(dated.dataRange == DataRange(start: AdTime(milliseconds: 1_010_000), end: AdTime(milliseconds: 1_020_000)))
        let undated = reader.metadata(of: ResolvedPresentation(try MPDParser().parse(Data(mpd("").utf8)), url: url))
        #expect(undated.pods.isEmpty && undated.problems.count == 1, "no anchor: \(undated.problems)")
    }

    @Test("The manifest is the beacon source: the stitched break's ads beaconed once from their ad-ID date ranges")
    func manifestSession() async throws {
        let h = try await AdSessionHarness(playing: nil)
        let provider = ManifestSignalingAdProvider(transport: h.transport, clock: h.clock)
        let info = try #require(await h.session.start(mediaUrl: URL(string: "\(h.base)/interstitials/master.m3u8")!, provider: provider))
        #expect(info.adTrackingMetadataUrl.path == "/interstitials/0/index.m3u8")
        #expect(h.session.adPods.map(\.id) == ["ad-id-break-1-1", "ad-id-break-1-2"])
        await h.makePlayer(url: info.manifestUrl)
        h.player.play()
        await h.play(until: 20)
        try await h.shutdown()
        let hits = h.lab.beacons.accepted(under: "/beacons/signaling/").map(\.path)
        let expected = ["ad-1", "ad-2"].flatMap { ad in
            ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete", "progress"].map {
                "/beacons/signaling/break-1/\(ad)/\($0)"
            }
        }
        #expect(hits.sorted() == expected.sorted(), "\(hits)")
        #expect(h.session.beacons.allSatisfy { $0.lateness <= .milliseconds(1) })
    }
}

private extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: Character(target), omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
