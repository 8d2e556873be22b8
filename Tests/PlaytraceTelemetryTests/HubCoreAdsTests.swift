import PlaytraceCore
import PlaytraceTelemetry
import PlaytraceTestSupport
import Testing

@Suite("HubCoreAds")
struct HubCoreAdsTests {
    @Test("Ad time is not content play time; End inside a break is dropped; ad events carry the content position")
    func midRoll() async throws {
        let h = TelemetryHarness(hub: HubCoreAds(pingInterval: .zero))
        let ads = h.instrument.addTracker(PlainTracker(ads: true))
        let content = h.tracker
        h.instrument.registerGetter(.position, tracker: content) { .int(10_000) }
        h.emit(.mediaRequest)
        h.emit(.start)
        await h.advance(.seconds(10))
        h.instrument.emit(.adBreakBegin, tracker: ads)
        h.instrument.emit(.adBegin, tracker: ads)
        await h.advance(.seconds(15))
        h.emit(.end)   // dropped: inside the break
        h.instrument.emit(.adFirstQuartile, tracker: ads)
        h.instrument.emit(.adFinish, tracker: ads)
        h.instrument.emit(.adBreakFinish, tracker: ads)
        await h.advance(.seconds(5))
        h.emit(.end)
        #expect(h.backend.actions == ["MediaRequest", "Start", "AdBreakBegin", "AdBegin", "AdFirstQuartile", "AdFinish",
                                      "AdBreakFinish", "End"])
        let end = try #require(h.backend.last(.end))
        #expect(end[.accumPlayTime] == .int(15_000), "10 s before the ad and 5 s after; not the 15 s ad")
        #expect(end[.countAds] == .int(1))
        let quartile = try #require(h.backend.last(.adFirstQuartile))
        #expect(quartile[.position] == .int(10_000))
        #expect(quartile[.inAdBlock] == .bool(true))
        #expect(quartile[Action.adBegin.timeAttribute] == .int(15_000))
    }

    @Test("AdSkip and AdError close the ad; ad events outside a break or an ad are dropped")
    func skipAndError() {
        let h = TelemetryHarness(hub: HubCoreAds(pingInterval: .zero))
        let ads = h.instrument.addTracker(PlainTracker(ads: true))
        for action in [Action.adBegin, .adFirstQuartile, .adBreakBegin, .adBegin, .adSkip, .adThirdQuartile, .adBegin,
                       .adError, .adBegin, .adFinish, .adBreakFinish, .adBreakFinish] {
            h.instrument.emit(action, tracker: ads)
        }
        #expect(h.backend.actions == ["AdBreakBegin", "AdBegin", "AdSkip", "AdBegin", "AdError", "AdBegin", "AdFinish",
                                      "AdBreakFinish"])
        #expect(h.backend.last(.adFinish)?[.countAds] == .int(3))
    }

    @Test("Many viewers on one instrument (separatesSessions): one viewer's ad break stops its own content time only, and its ad events carry its own position")
    func viewersApart() async throws {
        let h = TelemetryHarness(hub: HubCoreAds(pingInterval: .zero, separatesSessions: true))
        let viewerA = h.tracker
        let viewerB = h.instrument.addTracker(PlainTracker())
        let adsA = h.instrument.addTracker(PlainTracker(ads: true))
        h.instrument.registerGetter(.position, tracker: viewerA) { .int(10_000) }
        h.instrument.registerGetter(.position, tracker: viewerB) { .int(77_000) }
        func emit(_ action: Action, _ tracker: TrackerID, session: String) {
            var attributes = AttributeList()
            attributes[.sessionId] = .string(session)
            h.instrument.emit(action, tracker: tracker, attributes: attributes)
        }
        for (tracker, session) in [(viewerA, "a"), (viewerB, "b")] {
            emit(.mediaRequest, tracker, session: session)
            emit(.start, tracker, session: session)
        }
        await h.advance(.seconds(10))
        emit(.adBreakBegin, adsA, session: "a")
        emit(.adBegin, adsA, session: "a")
        await h.advance(.seconds(15))
        emit(.adFinish, adsA, session: "a")
        emit(.adBreakFinish, adsA, session: "a")
        await h.advance(.seconds(5))
        emit(.end, viewerA, session: "a")
        emit(.end, viewerB, session: "b")
        let ends = h.backend.events.filter { $0.action == .end }
        #expect(ends.count == 2)
        #expect(ends.first { $0[.sessionId] == "a" }?[.accumPlayTime] == .int(15_000), "viewer a: its 15 s ad is not content")
        #expect(ends.first { $0[.sessionId] == "b" }?[.accumPlayTime] == .int(30_000), "viewer b played on through a's ad")
        #expect(h.backend.last(.adFinish)?[.position] == .int(10_000), "a's ad carries a's position, not b's")
    }
}
