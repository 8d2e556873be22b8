import Foundation
import PlaytraceCore
import PlaytraceLab
import PlaytracePlayer
import Testing

/// The Player and interstitials: the current one, skipping it where allowed, trackers and metric events.
@Suite("Player: interstitials", .serialized)
@MainActor
struct PlayerInterstitialTests {
    @Test("The current interstitial is exposed and in trackers' properties; a restricted one cannot be skipped")
    func restricted() async throws {
        let log = TrackerLog()
        let h = try await PlayerHarness { h in [h.item("t", log: log)] }
        h.player.play()
        await h.advance(until: { h.player.currentInterstitial?.assetIndex != nil }, limit: .seconds(40))
        #expect(h.player.currentInterstitial?.event.id == "pod-2" && h.player.time.seconds == 24)
        #expect(log.lastProperties?.interstitial?.event.id == "pod-2")
        #expect(!h.player.canSkipInterstitial && !h.player.skipInterstitial())
        await h.advance(until: { h.player.playbackState == .ended }, limit: .seconds(60))
        let kinds = log.metricEvents["t"]?.map(\.kind) ?? []
        #expect(kinds.contains { if case .interstitialBegan(let event) = $0 { event.id == "pod-2" } else { false } })
        #expect(kinds.contains { if case .interstitialEnded(_, .played) = $0 { true } else { false } })
        await h.shutdown()
    }

    @Test("A scripted viewer skips an interstitial that allows it: the primary resumes at once")
    func skipped() async throws {
        var lab = LabConfiguration()
        lab.vodInterstitialRestrictions = []
        let runner = ViewerScriptRunner(script: try ViewerScript(parsing: "at 24 skip"))
        let log = TrackerLog()
        let h = try await PlayerHarness(lab: lab) { h in
            [PlayerItem.simple(url: h.url("vod/master.m3u8"), metadata: TestMetadata(title: "A"), trackerAdapters: [
                RecordingTracker.adapter(configuration: .init(name: "t", log: log)) { $0.title },
                ViewerScriptTracker.adapter(configuration: runner) { _ in () },
            ])]
        }
        h.player.play()
        await h.advance(until: { h.player.time.seconds >= 25 }, limit: .seconds(40))
        let kinds = log.metricEvents["t"]?.map(\.kind) ?? []
        #expect(kinds.contains { if case .interstitialEnded(_, .skipped) = $0 { true } else { false } }, "\(kinds)")
        #expect(h.player.currentInterstitial == nil)
        await h.shutdown()
    }
}
