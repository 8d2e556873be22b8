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

    @Test("A scripted viewer acts inside an interstitial, at a time of its own timeline, while the primary stands still")
    func actsInsideAnInterstitial() async throws {
        let runner = ViewerScriptRunner(script: try ViewerScript(parsing: "at 20 mute; in pod-2 at 3 unmute; at 30 stop"))
        var performed: [(step: ViewerScript.Step, primary: Double, interstitial: Double?)] = []
        let h = try await PlayerHarness { h in
            [PlayerItem.simple(url: h.url("vod/master.m3u8"), metadata: TestMetadata(title: "A"), trackerAdapters: [
                ViewerScriptTracker.adapter(configuration: runner) { _ in () },
            ])]
        }
        // The time an action is told with is the playhead of its timeline.
        runner.onAction = { step, time in
            performed.append((step, h.player.time.seconds, step.interstitial == nil ? nil : time.seconds))
        }
        h.player.play()
        await h.advance(until: { runner.stopRequested }, limit: .seconds(60))
        #expect(performed.map(\.step.action) == [.mute, .unmute, .stop])
        let unmute = try #require(performed.count == 3 ? performed[1] : nil)
        #expect(unmute.primary == 24, "the primary stands at the interstitial's position")
        #expect(unmute.interstitial.map { $0 >= 3 && $0 - 3 < 0.002 } == true, "at 3 s of the interstitial: \(String(describing: unmute.interstitial))")
        #expect(h.player.isMuted == false)
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
