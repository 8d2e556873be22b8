import PlaytraceCore
import PlaytraceTelemetry
import PlaytraceTestSupport
import Testing

@Suite("Ads tracker")
struct AdTelemetryTrackerTests {
    @Test("A mid-roll of two ads: breaks, ads and quartiles once each, in order, with the ad's attributes; ad time is not content time")
    func midRoll() async throws {
        let h = TelemetryHarness(hub: HubCoreAds(pingInterval: .zero))
        let ads = AdTelemetryTracker(instrument: h.instrument, sessionID: "viewer-1")
        h.emit(.mediaRequest)
        h.emit(.start)
        await h.advance(.seconds(10))

        ads.adProgressed(to: .seconds(5))   // no ad: nothing
        ads.breakBegan(roll: .mid)
        ads.breakBegan(roll: .mid)          // already open: nothing
        ads.volumeChanged(to: 140)
        ads.adBegan(TelemetryAd(id: "ad-1", title: "Spring sale", creativeID: "cr-9", system: "Harmonic",
                                advertiser: "ACME", duration: .seconds(20), bitrate: 800_000, width: 640, height: 360))
        ads.adProgressed(to: .seconds(4))   // under a quarter
        ads.adProgressed(to: .seconds(5))   // first quartile
        ads.adPaused()
        ads.adPaused()                      // already paused: nothing
        ads.adResumed()
        ads.adProgressed(to: .seconds(16))  // second and third at once
        ads.adProgressed(to: .seconds(2))   // back: nothing again
        ads.adProgressed(to: .seconds(19))
        ads.adClicked()
        await h.advance(.seconds(20))
        ads.adEnded()
        ads.adEnded()                       // already ended: nothing
        ads.adBegan(TelemetryAd(id: "ad-2", duration: .seconds(10)))
        ads.adBufferBegan()
        ads.adBufferEnded()
        ads.adSkipped()
        ads.adBegan(TelemetryAd(id: "ad-3"))   // no duration: no quartiles
        ads.adProgressed(to: .seconds(30))
        ads.adFailed("creative 404")
        ads.breakEnded()
        await h.advance(.seconds(5))
        h.emit(.end)

        #expect(h.backend.actions == [
            "MediaRequest", "Start", "AdBreakBegin", "AdBegin", "AdFirstQuartile", "AdPauseBegin", "AdPauseFinish",
            "AdSecondQuartile", "AdThirdQuartile", "AdClick", "AdFinish", "AdBegin", "AdBufferBegin", "AdBufferFinish",
            "AdSkip", "AdBegin", "AdError", "AdBreakFinish", "End",
        ])
        let first = try #require(h.backend.last(.adFirstQuartile))
        #expect(first[.adId] == "ad-1" && first[.adTitle] == "Spring sale" && first[.adCreativeId] == "cr-9")
        #expect(first[.adSystem] == "Harmonic" && first[.adAdvertiserName] == "ACME")
        #expect(first[.adDuration] == .int(20_000) && first[.adPosition] == .int(5_000))
        #expect(first[.adRoll] == "mid" && first[.adVolume] == .int(100) && first[.isAdsTracker] == .bool(true))
        #expect(first[.adBitrate] == .int(800_000) && first[.adResolutionWidth] == .int(640))
        #expect(first[.sessionId] == "viewer-1")
        let skip = try #require(h.backend.last(.adSkip))
        #expect(skip[.adId] == "ad-2")
        let error = try #require(h.backend.last(.adError))
        #expect(error[.errorDescription] == "creative 404" && error[.adId] == "ad-3")
        let end = try #require(h.backend.last(.end))
        #expect(end[.accumPlayTime] == .int(15_000), "10 s before the break and 5 s after; the 20 s of ads are not content")
        #expect(end[.countAds] == .int(3))
    }

    @Test("Breaking off: a new ad closes the one still open; the break's end closes the last; the tracker leaves with its object")
    func closing() throws {
        let h = TelemetryHarness(hub: HubCoreAds(pingInterval: .zero))
        var ads: AdTelemetryTracker? = AdTelemetryTracker(instrument: h.instrument)
        ads?.breakBegan(roll: .pre)
        ads?.adBegan(TelemetryAd(id: "a"))
        ads?.adBegan(TelemetryAd(id: "b"))
        ads?.breakEnded()
        #expect(h.backend.actions == ["AdBreakBegin", "AdBegin", "AdFinish", "AdBegin", "AdFinish", "AdBreakFinish"])
        #expect(h.backend.events.filter { $0.action == .adFinish }.map { $0[.adId] } == ["a", "b"])
        let id = try #require(ads?.trackerID)
        ads = nil
        h.instrument.emit(.adBreakBegin, tracker: id)
        #expect(h.backend.events.count == 6, "the tracker was removed from the instrument")
    }
}
