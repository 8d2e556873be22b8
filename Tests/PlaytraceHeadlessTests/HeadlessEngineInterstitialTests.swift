import Foundation
import PlaytraceCore
import PlaytraceHeadless
import PlaytraceLab
import PlaytracePlayer
import Testing

/// HLS interstitials played by the headless engine: the lab's on-demand stream has one at 24 s (`pod-2`: an asset
/// list of an 8 s and a 4 s asset, `X-RESUME-OFFSET=0`, `X-RESTRICT="SKIP"`).
@Suite("Headless engine: interstitials", .serialized)
struct HeadlessEngineInterstitialTests {
    private func interstitialEvents(_ events: [EngineEvent]) -> [String] {
        events.compactMap { event in
            switch event {
            case .interstitialBegan(let info): "began \(info.id) at \(info.start.seconds)"
            case .interstitialAssetBegan(_, let index, let asset): "asset \(index) \(URL(string: asset.url)?.path ?? "?") "
                + "\(asset.duration?.seconds ?? -1)"
            case .interstitialAssetEnded(_, let index, let outcome): "asset \(index) \(outcome)"
            case .interstitialEnded(let info, let outcome): "ended \(info.id) \(outcome)"
            default: nil
            }
        }
    }

    @Test("At its date the primary waits; the asset list (with the _HLS_ parameters) and each asset play; the primary resumes, once")
    func midRoll() async throws {
        let harness = try await EngineHarness()
        await harness.engine.setReportsProgress(true)
        await harness.start("vod/master.m3u8")
        await harness.advance(until: { $0.interstitial != nil }, limit: .seconds(40))
        var snapshot = await harness.engine.snapshot()
        #expect(snapshot.playhead.seconds == 24 && snapshot.interstitial?.event.id == "pod-2")
        #expect(snapshot.interstitial?.event.isSkipRestricted == true && snapshot.interstitial?.event.isJumpRestricted == false)
        await harness.advance(by: .seconds(6))
        snapshot = await harness.engine.snapshot()
        #expect(snapshot.playhead.seconds == 24, "the primary waits")
        #expect(snapshot.interstitial?.assetIndex == 0 && abs((snapshot.interstitial?.elapsed.seconds ?? 0) - 6) < 0.15)
        await harness.engine.skipInterstitial()
        #expect(await harness.engine.snapshot().interstitial != nil, "X-RESTRICT=SKIP: it cannot be skipped")
        await harness.advance(until: { $0.status == .ended }, limit: .seconds(60))

        let events = await harness.recorder.events
        #expect(interstitialEvents(events) == [
            "began pod-2 at 24.0", "asset 0 /ads/0/index.m3u8 8.0", "asset 0 played", "asset 1 /ads/1/index.m3u8 4.0",
            "asset 1 played", "ended pod-2 played",
        ])
        let list = try #require(harness.lab.requests.all.first { $0.path == "/ads/assetlist.json" })
        #expect(list.query?.contains("_HLS_interstitial_id=pod-2") == true && list.query?.contains("_HLS_primary_id=") == true)
        #expect(harness.lab.requests.all.filter { $0.path.hasPrefix("/ads/0/seg") }.count == 2)
        // The interstitial's progress reports cover its 12 s without a hole; the primary's cover all of its 40 s.
        let progress = events.compactMap { if case .progressed(let progress) = $0 { progress } else { nil } }
        let inside = progress.compactMap(\.interstitial)
        #expect(inside.first?.from == .zero && abs((inside.last?.to.seconds ?? 0) - 12) < 1e-6)
        #expect(zip(inside, inside.dropFirst()).allSatisfy { $0.to == $1.from })
        let primary = progress.filter { $0.interstitial == nil }
        #expect(primary.reduce(0) { $0 + $1.to.seconds - $1.from.seconds } > 39.9)
        await harness.shutdown()
    }

    @Test("An asset-list error cancels the interstitial: the primary goes on from its start")
    func assetListError() async throws {
        let harness = try await EngineHarness()
        harness.lab.faults.add(LabFault(pathContains: "/ads/assetlist.json", kind: .status(500)))
        await harness.start("vod/master.m3u8")
        await harness.advance(until: { $0.playhead.seconds >= 27 }, limit: .seconds(60))
        let events = interstitialEvents(await harness.recorder.events)
        #expect(events.count == 2 && events.first == "began pod-2 at 24.0")
        #expect(events.last?.hasPrefix("ended pod-2 failed(\"the asset list:") == true, "\(events)")
        await harness.shutdown()
    }

    @Test("An asset's error skips that asset; the next one plays")
    func assetError() async throws {
        let harness = try await EngineHarness()
        harness.lab.faults.add(LabFault(pathContains: "/ads/0/index.m3u8", kind: .status(404)))
        await harness.start("vod/master.m3u8")
        await harness.advance(until: { $0.status == .ended }, limit: .seconds(80))
        let events = interstitialEvents(await harness.recorder.events)
        #expect(events.count == 6)
        #expect(events[2].hasPrefix("asset 0 failed("), "\(events)")
        #expect(Array(events[3...]) == ["asset 1 /ads/1/index.m3u8 4.0", "asset 1 played", "ended pod-2 played"])
        await harness.shutdown()
    }

    @Test("An asset segment that comes late keeps the viewer waiting: a stall inside the interstitial, then it plays on")
    func stallInAsset() async throws {
        let harness = try await EngineHarness()
        // The second asset is downloaded from 24 s, while the first plays: its first segment, 11 s late, arrives at
        // 35 s, 3 s after the first asset ends.
        harness.lab.faults.add(LabFault(pathContains: "/ads/1/seg0.ts", kind: .delay(milliseconds: 11_000)))
        await harness.start("vod/master.m3u8")
        await harness.advance(until: { $0.status == .ended }, limit: .seconds(80))
        let events = await harness.recorder.events
        let stalls = events.compactMap { if case .stallBegan(let at) = $0 { at.seconds } else { nil } }
        #expect(stalls == [24], "one stall, the primary waiting at the interstitial: \(stalls)")
        let ended = events.compactMap { if case .stallEnded(let after) = $0 { after } else { nil } }
        #expect(ended.count == 1 && ended[0] >= .seconds(2.8) && ended[0] <= .seconds(3.2), "\(ended)")
        #expect(interstitialEvents(events).last == "ended pod-2 played")
        await harness.shutdown()
    }

    @Test("The asset list and the first asset are downloaded ahead: a slow link does not make the interstitial wait")
    func preloaded() async throws {
        let harness = try await EngineHarness()
        // Each ad segment takes 2.4 s to arrive: downloaded when the interstitial began, the first would stall.
        harness.lab.faults.add(LabFault(pathContains: "/ads/0/", kind: .throttle(bytesPerSecond: 250_000)))
        await harness.start("vod/master.m3u8")
        await harness.advance(until: { $0.interstitial != nil }, limit: .seconds(40))
        let list = try #require(harness.lab.requests.all.first { $0.path == "/ads/assetlist.json" })
        #expect(list.receivedAt <= .seconds(15), "asked for 10 s ahead: \(list.receivedAt)")
        await harness.advance(until: { $0.interstitial?.assetIndex == 1 }, limit: .seconds(20))
        let events = await harness.recorder.events
        #expect(!events.contains { if case .stallBegan = $0 { true } else { false } }, "no stall in the first asset")
        await harness.shutdown()
    }

    @Test("The next asset is downloaded while the current one plays: a slow link does not stall at the switch")
    func nextAssetPrefetched() async throws {
        let harness = try await EngineHarness()
        // Each segment of the second asset takes 2.4 s to arrive: asked for when it begins, its first would stall.
        harness.lab.faults.add(LabFault(pathContains: "/ads/1/", kind: .throttle(bytesPerSecond: 250_000)))
        await harness.engine.setReportsProgress(true)
        await harness.start("vod/master.m3u8")
        await harness.advance(until: { $0.interstitial?.assetIndex == 1 }, limit: .seconds(40))
        let asked = try #require(harness.lab.requests.all.first { $0.path == "/ads/1/seg0.ts" })
        #expect(asked.receivedAt < .seconds(25), "asked for while the first asset played: \(asked.receivedAt)")
        await harness.advance(until: { $0.interstitial == nil }, limit: .seconds(20))
        let events = await harness.recorder.events
        #expect(!events.contains { if case .stallBegan = $0 { true } else { false } }, "no stall at the switch")
        let inside = events.compactMap { if case .progressed(let progress) = $0 { progress.interstitial } else { nil } }
        #expect(zip(inside, inside.dropFirst()).allSatisfy { $0.to == $1.from }, "the interstitial's time runs on")
        await harness.shutdown()
    }

    @Test("Off in the configuration, interstitials are not played")
    func off() async throws {
        var configuration = HeadlessEngine.Configuration()
        configuration.playsInterstitials = false
        let harness = try await EngineHarness(engine: configuration)
        await harness.start("vod/master.m3u8")
        await harness.advance(until: { $0.status == .ended }, limit: .seconds(60))
        #expect(interstitialEvents(await harness.recorder.events).isEmpty)
        await harness.shutdown()
    }
}
