import Foundation
import PlaytraceCore
import PlaytraceHeadless
import PlaytraceLab
import PlaytracePlayer
import Testing

/// The lab's stream with interstitials of every kind (``LabInterstitials``, 4 s segments, 80 s of primary): a
/// pre-roll; `mid-1` dated 21.6 s with `X-SNAP="OUT,IN"` and a resume offset of 11 s; `mid-2` at 40 s, JUMP-restricted,
/// skippable from 2 s, resuming where it began; `mid-3` at 52 s whose asset list is missing; `mid-4` at 60 s whose
/// first asset is missing; a post-roll.
@Suite("Headless engine: pre-, mid- and post-rolls, snap, restrictions", .serialized)
struct HeadlessEngineInterstitialScheduleTests {
    private func summary(_ events: [EngineEvent]) -> [String] {
        events.compactMap { event in
            switch event {
            case .interstitialBegan(let info): "began \(info.id) at \(info.start.seconds)"
            case .interstitialAssetEnded(_, let index, let outcome):
                if case .failed = outcome { "asset \(index) failed" } else { "asset \(index) \(outcome)" }
            case .interstitialEnded(let info, let outcome):
                if case .failed = outcome { "ended \(info.id) failed" } else { "ended \(info.id) \(outcome)" }
            case .seekBegan(let target): "seek to \(target.seconds)"
            case .ended: "end"
            default: nil
            }
        }
    }

    @Test("Played through: pre-roll first, mid-rolls snapped and resumed as their attributes say, errors skipped, post-roll last")
    func playedThrough() async throws {
        let harness = try await EngineHarness()
        await harness.start("interstitials/master.m3u8")
        await harness.advance(until: { $0.interstitial != nil }, limit: .seconds(10))
        var snapshot = await harness.engine.snapshot()
        #expect(snapshot.interstitial?.event.id == "pre" && snapshot.interstitial?.event.placement == .preRoll)
        #expect(snapshot.playedRanges.ranges.isEmpty, "nothing of the primary played before the pre-roll")
        #expect(snapshot.interstitials.map(\.id) == ["pre", "mid-1", "mid-2", "mid-3", "mid-4", "post"])
        #expect(snapshot.interstitials.first { $0.id == "mid-1" }?.start.seconds == 20, "X-SNAP=OUT: at the nearest boundary")
        await harness.advance(until: { $0.interstitial?.event.id == "mid-1" }, limit: .seconds(40))
        snapshot = await harness.engine.snapshot()
        #expect(snapshot.playhead.seconds == 20)
        await harness.advance(until: { $0.interstitial == nil }, limit: .seconds(20))
        snapshot = await harness.engine.snapshot()
        #expect(snapshot.playhead.seconds == 32, "resumes at 20 + 11 s, snapped in to 32 s: \(snapshot.playhead)")
        await harness.advance(until: { $0.status == .ended }, limit: .seconds(120))
        #expect(summary(await harness.recorder.events) == [
            "began pre at 0.0", "asset 0 played", "ended pre played",
            "began mid-1 at 20.0", "asset 0 played", "asset 1 played", "ended mid-1 played",
            "began mid-2 at 40.0", "asset 0 played", "asset 1 played", "ended mid-2 played",
            "began mid-3 at 52.0", "ended mid-3 failed",
            "began mid-4 at 60.0", "asset 0 failed", "asset 1 played", "ended mid-4 played",
            "began post at 80.0", "asset 0 played", "ended post played", "end",
        ])
        // mid-3's asset list answers 404: asked for once, while preloading; skipped at once when reached, not asked
        // again at every tick before it nor when it is reached.
        #expect(harness.lab.requests.all.filter { $0.path == "/ads/pods/missing.json" }.count == 1)
        // The primary played everything but what mid-1 replaced (20…32 s).
        snapshot = await harness.engine.snapshot()
        #expect(snapshot.playedRanges.ranges.map { [$0.start.seconds, $0.end.seconds] } == [[0, 20], [32, 80]])
        await harness.shutdown()
    }

    @Test("A forward seek past a JUMP-restricted interstitial plays it first, then goes on to the seek's target")
    func jumpRestriction() async throws {
        let harness = try await EngineHarness()
        await harness.start("interstitials/master.m3u8")
        await harness.advance(until: { $0.playhead.seconds >= 34 }, limit: .seconds(60))
        await harness.engine.seek(to: MediaTime(seconds: 70))
        await harness.advance(until: { $0.interstitial != nil }, limit: .seconds(10))
        var snapshot = await harness.engine.snapshot()
        #expect(snapshot.interstitial?.event.id == "mid-2" && snapshot.playhead.seconds == 40)
        await harness.advance(until: { $0.interstitial == nil }, limit: .seconds(20))
        await harness.advance(until: { !$0.isSeeking }, limit: .seconds(10))
        snapshot = await harness.engine.snapshot()
        #expect(abs(snapshot.playhead.seconds - 70) < 0.5, "\(snapshot.playhead)")
        let events = summary(await harness.recorder.events)
        #expect(Array(events.drop { !$0.hasPrefix("seek") }) == [
            "seek to 40.0", "began mid-2 at 40.0", "asset 0 played", "asset 1 played", "ended mid-2 played", "seek to 70.0",
        ], "mid-3 and mid-4, not restricted, are jumped over")
        await harness.shutdown()
    }

    @Test("The skip control: no skip before its offset, a skip after it; a seek back before a played mid-roll plays it again")
    func skipControlAndReplay() async throws {
        let harness = try await EngineHarness()
        await harness.start("interstitials/master.m3u8")
        await harness.advance(until: { $0.interstitial?.event.id == "mid-2" }, limit: .seconds(80))
        await harness.advance(by: .seconds(1))
        #expect(await harness.engine.snapshot().interstitial?.canSkip == false)
        await harness.engine.skipInterstitial()
        #expect(await harness.engine.snapshot().interstitial?.event.id == "mid-2", "the skip control is not shown yet")
        await harness.advance(by: .seconds(1.5))
        #expect(await harness.engine.snapshot().interstitial?.canSkip == true)
        await harness.engine.skipInterstitial()
        var snapshot = await harness.engine.snapshot()
        #expect(snapshot.interstitial == nil && snapshot.playhead.seconds == 40)
        // A seek back before mid-2 (no CUE=ONCE) makes it play again when reached.
        await harness.advance(by: .seconds(1))
        await harness.engine.seek(to: MediaTime(seconds: 36))
        await harness.advance(until: { $0.interstitial?.event.id == "mid-2" }, limit: .seconds(10))
        snapshot = await harness.engine.snapshot()
        #expect(snapshot.playhead.seconds == 40)
        let began = summary(await harness.recorder.events).filter { $0.hasPrefix("began mid-2") || $0.hasPrefix("ended mid-2") }
        #expect(began == ["began mid-2 at 40.0", "ended mid-2 skipped", "began mid-2 at 40.0"])
        await harness.shutdown()
    }

    @Test("Live: an interstitial in the window plays at its date; the primary resumes after what it played; the next one too")
    func live() async throws {
        var lab = LabConfiguration()
        lab.liveInterstitialInterval = 3
        let harness = try await EngineHarness(lab: lab)
        await harness.start("live/master.m3u8")
        await harness.advance(until: { $0.interstitial != nil }, limit: .seconds(30))
        var snapshot = await harness.engine.snapshot()
        let first = try #require(snapshot.interstitial)
        #expect(first.event.id.hasPrefix("live-int-") && first.event.isSkipRestricted)
        let start = snapshot.playhead.seconds
        await harness.advance(until: { $0.interstitial == nil }, limit: .seconds(20))
        await harness.advance(until: { !$0.isSeeking }, limit: .seconds(10))
        snapshot = await harness.engine.snapshot()
        #expect(abs(snapshot.playhead.seconds - (start + 4)) < 0.2, "resumes after the 4 s it played: \(start) → \(snapshot.playhead)")
        await harness.advance(until: { $0.interstitial != nil && $0.interstitial?.event.id != first.event.id }, limit: .seconds(30))
        snapshot = await harness.engine.snapshot()
        #expect(abs(snapshot.playhead.seconds - (start + 12)) < 0.2, "the next one, 3 segments later")
        let summary = summary(await harness.recorder.events)
        #expect(summary.prefix(3) == ["began \(first.event.id) at \(start)", "asset 0 played", "ended \(first.event.id) played"])
        await harness.shutdown()
    }

    @Test("Playback that starts inside an interstitial's span joins it there (_HLS_start_offset), after the pre-roll")
    func joinedUnderWay() async throws {
        let harness = try await EngineHarness()
        await harness.engine.setReportsProgress(true)
        // mid-1 stands for 20…31 s of the primary (resume offset 11 s): starting at 25 s joins it 5 s in.
        await harness.engine.load(EngineSource(url: harness.url("interstitials/master.m3u8"), startPosition: MediaTime(seconds: 25)))
        await harness.engine.play()
        await harness.advance(until: { $0.interstitial?.event.id == "mid-1" }, limit: .seconds(20))
        var snapshot = await harness.engine.snapshot()
        #expect(snapshot.playhead.seconds == 25, "the primary waits where playback started")
        let list = try #require(harness.lab.requests.all.first { $0.path == "/ads/pods/mid-1.json" })
        #expect(list.query?.contains("_HLS_start_offset=5.000") == true, "\(list.query ?? "")")
        await harness.advance(until: { $0.interstitial == nil }, limit: .seconds(20))
        await harness.advance(until: { !$0.isSeeking }, limit: .seconds(10))
        snapshot = await harness.engine.snapshot()
        #expect(snapshot.playhead.seconds == 32, "resumes at 20 + 11 s, snapped in: \(snapshot.playhead)")
        #expect(!harness.lab.requests.all.contains { $0.path == "/ads/0/seg0.ts" }, "the segment before the join is not fetched")
        let inside = await harness.recorder.events.compactMap { event -> InterstitialProgress? in
            if case .progressed(let progress) = event, progress.interstitial?.event.id == "mid-1" { progress.interstitial } else { nil }
        }
        #expect(abs((inside.first?.from.seconds ?? 0) - 5) < 1e-6 && abs((inside.last?.to.seconds ?? 0) - 12) < 1e-6)
        #expect(summary(await harness.recorder.events).prefix(4) == ["began pre at 25.0", "asset 0 played", "ended pre played",
                                                                     "began mid-1 at 20.0"])
        await harness.shutdown()
    }

    @Test("A seek while an interstitial that may not be skipped plays waits for its end")
    func seekWaits() async throws {
        let harness = try await EngineHarness()
        await harness.start("interstitials/master.m3u8")
        await harness.advance(until: { $0.interstitial?.event.id == "mid-2" }, limit: .seconds(80))
        await harness.engine.seek(to: MediaTime(seconds: 10))
        await harness.advance(by: .seconds(1))
        #expect(await harness.engine.snapshot().interstitial?.event.id == "mid-2", "before its skip control, the seek waits")
        await harness.advance(until: { $0.interstitial == nil }, limit: .seconds(20))
        await harness.advance(until: { !$0.isSeeking }, limit: .seconds(10))
        let snapshot = await harness.engine.snapshot()
        #expect(abs(snapshot.playhead.seconds - 10) < 0.5, "\(snapshot.playhead)")
        #expect(summary(await harness.recorder.events).suffix(2) == ["ended mid-2 played", "seek to 10.0"])
        await harness.shutdown()
    }
}
