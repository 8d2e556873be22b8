import Foundation
import PlaytraceAds
import Testing

/// The IAB's rules for a linear ad's events, as ``VASTAdBreak`` places them and the scheduler fires them.
@Suite("VAST: tracking events of a linear ad")
struct VASTAdBreakTests {
    private func resolved(duration: String = "00:00:20", tracking: [(String, String?)], wrapperStarts: Int = 0) throws -> ResolvedVASTAd {
        let events = tracking.map { event, offset in
            #"<Tracking event="\#(event)"\#(offset.map { #" offset="\#($0)""# } ?? "")><![CDATA[https://t.example/\#(event)\#(offset ?? "")]]></Tracking>"#
        }.joined()
        let xml = #"<VAST version="4.2"><Ad id="a"><InLine><Impression><![CDATA[https://t.example/imp]]></Impression><Creatives><Creative><Linear><Duration>\#(duration)</Duration><TrackingEvents>\#(events)</TrackingEvents></Linear></Creative></Creatives></InLine></Ad></VAST>"#
        let ad = try #require(try VASTParser().parse(Data(xml.utf8)).ads.first)
        let wrappers = (0..<wrapperStarts).map { index in
            VASTAd(kind: .wrapper(VASTWrapper(adTagURI: "https://w.example")), impressionURLs: ["https://w\(index).example/imp"],
                   creatives: [VASTCreative(linear: VASTLinear(trackingEvents: [VASTTracking(event: "start", url: "https://w\(index).example/start")]))])
        }
        return ResolvedVASTAd(ad: ad, wrappers: wrappers)
    }

    private func fired(_ adBreak: VASTAdBreak, playing ranges: [(Double, Double)]) -> [String] {
        var pods = [adBreak.pod]
        var scheduler = BeaconScheduler()
        var names: [String] = []
        for (index, range) in ranges.enumerated() {
            let firings = scheduler.observe(.played(from: AdTime(milliseconds: range.0), to: AdTime(milliseconds: range.1), rate: 1,
                                                    at: .seconds(index)), pods: &pods)
            names += firings.flatMap { $0.urls.map { URL(string: $0)?.path ?? $0 } }
        }
        return names
    }

    @Test("Offsets and durations at the edges (10^13 hours, 1e300) are unreadable, never a trap (issue 44)")
    func edgeNumbers() throws {
        #expect(VASTOffset("9999999999999:00:00") == nil, "past the documents' range")
        #expect(VASTOffset("1e300%") == nil && VASTOffset("nan%") == nil)
        #expect(VASTOffset("277777:00:00") == .seconds(999_997_200), "a long but possible time is kept")
        let ad = try resolved(duration: "9999999999999:00:00",
                              tracking: [("start", nil), ("progress", "9999999999999:00:00"), ("complete", nil)])
        #expect(ad.linear?.duration == nil, "the duration is unreadable")
        // A break built with absurd numbers anyway (an ad's duration in seconds from elsewhere) keeps its keys whole.
        let adBreak = VASTAdBreak(id: "b", start: 1e300, ads: [(ad, 1e300, nil)])
        #expect(!adBreak.pod.ads[0].trackingEvents.isEmpty && adBreak.pod.ads[0].trackingEvents.allSatisfy { $0.id.time == Int64.max })
    }

    @Test("Quartiles at 25/50/75 %, complete at the end; progress at a time offset and at a percentage of the duration")
    func placement() throws {
        let ad = try resolved(tracking: [("start", nil), ("firstQuartile", nil), ("midpoint", nil), ("thirdQuartile", nil),
                                         ("complete", nil), ("progress", "00:00:05"), ("progress", "10%"), ("progress", "00:00:30")])
        let adBreak = VASTAdBreak(id: "b", start: 1_000, ads: [(ad, 20, nil)])
        let times = Dictionary(adBreak.pod.ads[0].trackingEvents.map { ("\($0.event)@\(Int($0.startTime.milliseconds))", 1) }, uniquingKeysWith: +)
        #expect(Set(times.keys) == ["impression@1000", "start@1000", "firstQuartile@6000", "midpoint@11000", "thirdQuartile@16000",
                                    "complete@21000", "progress@6000", "progress@3000"],
                "an offset past the ad's end (30 s of 20 s) never fires: it is left out")
        #expect(fired(adBreak, playing: [(1_000, 21_000)]).count == 8)
    }

    @Test("A percentage offset with an unknown duration is ignored; a skipped ad keeps the progress it reached")
    func unknownDurationAndSkip() throws {
        let unknown = try resolved(duration: "bad", tracking: [("progress", "50%"), ("progress", "00:00:01")])
        let adBreak = VASTAdBreak(id: "b", start: 0, ads: [(unknown, 0, nil)])
        #expect(adBreak.pod.ads[0].trackingEvents.map(\.event.rawValue) == ["impression"],
                "no duration: neither the percentage nor an offset the ad cannot be known to reach")
        let skippable = try resolved(tracking: [("progress", "00:00:05"), ("complete", nil)])
        let played = VASTAdBreak(id: "b", start: 0, ads: [(skippable, 20, nil)])
        // Played 6 s, then skipped: the 5 s progress counts the view; complete never fires.
        #expect(fired(played, playing: [(0, 6_000)]) == ["/imp", "/progress00:00:05"])
    }

    @Test("Impressions and tracking of the whole chain fire together, once")
    func chain() throws {
        let ad = try resolved(tracking: [("start", nil)], wrapperStarts: 2)
        let adBreak = VASTAdBreak(id: "b", start: 0, ads: [(ad, 20, nil)])
        let events = adBreak.pod.ads[0].trackingEvents
        #expect(events.first { $0.event == .impression }?.signalingUrls.count == 3)
        #expect(events.first { $0.event == .start }?.signalingUrls.count == 3)
        #expect(fired(adBreak, playing: [(0, 100), (100, 200)]).count == 6, "each URL once, on the first movement")
    }
}
