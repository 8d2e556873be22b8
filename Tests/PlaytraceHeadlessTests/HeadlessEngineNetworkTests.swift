import Foundation
import PlaytraceCore
import PlaytraceHeadless
import PlaytraceLab
import PlaytracePlayer
import Testing

@Suite("Headless engine: stalls, bit rate adaptation and failures", .serialized)
struct HeadlessEngineNetworkTests {
    @Test func stallsUnderThrottledBandwidthAndRecovers() async throws {
        var configuration = HeadlessEngine.Configuration()
        configuration.forwardBufferDuration = 8
        let harness = try await EngineHarness(lab: LabConfiguration(vodSegmentCount: 20), engine: configuration)
        await harness.engine.setVariantLimits(VariantLimits(maximumBandwidth: 400_000))
        await harness.start("/vod/master.m3u8")
        await harness.advance(until: { $0.status == .playing }, limit: .seconds(5))
        await harness.advance(by: .seconds(4))
        // 400 kbit/s segments of 4 s are 200 kB: at 20 kB/s each takes 10 s to arrive.
        harness.lab.faults.add(LabFault(pathContains: ".ts", kind: .throttle(bytesPerSecond: 20_000)))
        let stalled = await harness.advance(until: { $0.status == .stalled }, limit: .seconds(40))
        #expect(stalled.stallCount == 1)
        harness.lab.faults.clear()
        let resumed = await harness.advance(until: { $0.status == .playing }, limit: .seconds(30))
        #expect(resumed.stallCount == 1)
        #expect(resumed.stallDuration > .zero)
        let events = await harness.recorder.events
        let began = events.firstIndex { if case .stallBegan = $0 { true } else { false } }
        let ended = events.firstIndex { if case .stallEnded = $0 { true } else { false } }
        #expect(began != nil && ended != nil && began! < ended!)
        await harness.shutdown()
    }

    @Test func switchesDownUnderThrottlingThenUpWhenItLifts() async throws {
        var configuration = HeadlessEngine.Configuration()
        configuration.forwardBufferDuration = 12
        let harness = try await EngineHarness(lab: LabConfiguration(vodSegmentCount: 60), engine: configuration)
        await harness.start("/vod/master.m3u8")
        let top = await harness.advance(until: { $0.currentVariant?.index == 2 }, limit: .seconds(20))
        #expect(top.currentVariant?.bandwidth == 3_000_000, "unthrottled loopback climbs to the top variant")
        // 100 kB/s is 0.8 Mbit/s: only the 400 kbit/s variant fits in the safety margin.
        harness.lab.faults.add(LabFault(pathContains: ".ts", kind: .throttle(bytesPerSecond: 100_000)))
        let low = await harness.advance(until: { $0.currentVariant?.index == 0 }, limit: .seconds(120))
        #expect(low.estimatedThroughput.map { $0 < 1_000_000 } == true)
        harness.lab.faults.clear()
        let high = await harness.advance(until: { $0.currentVariant?.index == 2 }, limit: .seconds(120))
        #expect(high.variantSwitchCount >= 2)
        let switches = await harness.recorder.events.compactMap { event -> (Int, VariantSwitchReason)? in
            if case .variantSwitched(_, let to, let reason) = event { return (to.index, reason) }
            return nil
        }
        let firstDown = switches.firstIndex { $0.1 == .throughputDown }
        let lastUp = switches.lastIndex { $0.1 == .throughputUp }
        #expect(firstDown != nil && lastUp != nil && firstDown! < lastUp!, "switched down, then up: \(switches)")
        await harness.shutdown()
    }

    /// A 503 is retried (three retries), a 404 or a 410 is not (asking again does not heal it: hls.js and ExoPlayer
    /// skip or fail over at once); either way the segment is then played past as a gap, with one warning for the
    /// failed request and one for the gap, not one per attempt.
    @Test(arguments: [(503, 4), (404, 1), (410, 1)])
    func aSegmentNoVariantCanDeliverIsPlayedPastAsAGap(status: Int, requests: Int) async throws {
        let harness = try await EngineHarness(lab: LabConfiguration(vodSegmentCount: 6))
        // The limits leave one variant: nothing can take over, so the request gets every retry.
        await harness.engine.setVariantLimits(VariantLimits(maximumBandwidth: 400_000))
        harness.lab.faults.add(LabFault(pathContains: "/vod/0/seg3.ts", kind: .status(status)))
        await harness.start("/vod/master.m3u8")
        let end = await harness.advance(until: { $0.status == .ended || $0.status == .failed }, limit: .seconds(60))
        #expect(end.status == .ended)
        #expect(end.playhead == 24)
        #expect(end.gaps.ranges == [MediaTimeRange(start: 12, end: 16)])
        #expect(harness.lab.requests.matching("/vod/0/seg3.ts").count == requests)
        let events = await harness.recorder.events
        let attempts = events.compactMap { event -> Int? in
            if case .request(let record) = event, record.url.hasSuffix("seg3.ts") { return record.attempt }
            return nil
        }
        #expect(attempts == Array(1...requests))
        let warnings = events.compactMap { event -> EngineError? in
            if case .error(let error) = event, !error.isFatal { return error }
            return nil
        }
        #expect(warnings.count == (requests > 1 ? 2 : 1), "\(warnings)")
        if requests > 1 { #expect(warnings.first?.message == "HTTP \(status) for the segment; retrying") }
        #expect(warnings.last?.message.hasPrefix("segment 3 (12.000–16.000 s) could not be loaded from any variant") == true)
        #expect(warnings.last?.httpStatus == status)
        #expect(!events.contains(.statusChanged(.failed)))
        await harness.shutdown()
    }

    @Test func transientFailuresAreRetriedAndPlaybackGoesOn() async throws {
        let harness = try await EngineHarness(lab: LabConfiguration(vodSegmentCount: 4))
        await harness.engine.setVariantLimits(VariantLimits(maximumBandwidth: 400_000))
        harness.lab.faults.add(LabFault(pathContains: "/vod/0/seg1.ts", kind: .status(503), remaining: 2))
        harness.lab.faults.add(LabFault(pathContains: "/vod/0/seg2.ts", kind: .dropConnection, remaining: 1))
        await harness.start("/vod/master.m3u8")
        let end = await harness.advance(until: { $0.status == .ended }, limit: .seconds(40))
        #expect(end.playhead == 16)
        #expect(harness.lab.requests.matching("/vod/0/seg1.ts").count == 3)
        #expect(harness.lab.requests.matching("/vod/0/seg2.ts").count == 2)
        #expect(end.error?.isFatal == false)
        await harness.shutdown()
    }

    @Test func aMissingPlaylistFailsWithItsStatus() async throws {
        let harness = try await EngineHarness()
        await harness.start("/nothing/master.m3u8")
        let failed = await harness.advance(until: { $0.status == .failed }, limit: .seconds(10))
        #expect(failed.error?.httpStatus == 404)
        await harness.shutdown()
    }
}
