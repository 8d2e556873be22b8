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
}
