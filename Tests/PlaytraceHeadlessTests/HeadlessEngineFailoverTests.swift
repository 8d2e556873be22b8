import Foundation
import PlaytraceCore
import PlaytraceHeadless
import PlaytraceLab
import PlaytracePlayer
import Testing

/// What real CDNs do to a player, and what the engine does about it: fail over to another variant while the buffer
/// plays out, play past what no variant can deliver, and fail only when nothing playable remains.
@Suite("Headless engine: failover", .serialized)
struct HeadlessEngineFailoverTests {
    static func warnings(_ events: [EngineEvent]) -> [EngineError] {
        events.compactMap { event in
            if case .error(let error) = event, !error.isFatal { return error }
            return nil
        }
    }

    static func switches(_ events: [EngineEvent]) -> [(Int, VariantSwitchReason)] {
        events.compactMap { event in
            if case .variantSwitched(_, let to, let reason) = event { return (to.index, reason) }
            return nil
        }
    }

    @Test func a404SegmentFailsOverToAnotherVariantAndPlaysToTheEnd() async throws {
        // The case seen on the lab: one 404 on the top variant used to end playback with 16 s buffered.
        let harness = try await EngineHarness(lab: LabConfiguration(vodSegmentCount: 10))
        harness.lab.faults.add(LabFault(pathContains: "/vod/2/seg4.ts", kind: .status(404)))
        await harness.start("/vod/master.m3u8")
        let end = await harness.advance(until: { $0.status == .ended || $0.status == .failed }, limit: .seconds(80))
        #expect(end.status == .ended, "error: \(String(describing: end.error))")
        #expect(end.playhead == 40)
        #expect(end.gaps.isEmpty, "another variant delivered the segment")
        #expect(end.stallCount == 0, "the buffer played out while the other variant was asked")
        #expect(harness.lab.requests.matching("/vod/2/seg4.ts").count == 1, "a 404 is not asked again when another variant can take over")
        let fromOthers = harness.lab.requests.matching("seg4.ts").filter { !$0.path.hasPrefix("/vod/2/") }
        #expect(fromOthers.count == 1)
        let events = await harness.recorder.events
        #expect(Self.warnings(events).contains { $0.httpStatus == 404 && $0.message.hasSuffix("another variant takes over") })
        #expect(Self.switches(events).contains { $0.1 == .failover })
        await harness.shutdown()
    }

    @Test func failsWhenNothingPlayableRemains() async throws {
        let harness = try await EngineHarness(lab: LabConfiguration(vodSegmentCount: 10))
        harness.lab.faults.add(LabFault(pathContains: "/seg", kind: .status(404)))
        await harness.start("/vod/master.m3u8")
        let failed = await harness.advance(until: { $0.status == .failed }, limit: .seconds(120))
        let error = try #require(failed.error)
        #expect(error.isFatal && error.httpStatus == 404)
        #expect(error.message.contains("3 segments in a row could not be loaded from any variant"))
        #expect(failed.gaps.ranges == [MediaTimeRange(start: 0, end: 8)], "two gaps, then the failure")
        await harness.shutdown()
    }

    @Test func aStallThatEndsInFailureIsAFailureNotAResumption() async throws {
        // One variant and slow retries: the playhead runs out of buffer while the missing segments are retried.
        var configuration = HeadlessEngine.Configuration()
        configuration.retryDelay = .seconds(2)
        let harness = try await EngineHarness(lab: LabConfiguration(vodSegmentCount: 10), engine: configuration)
        await harness.engine.setVariantLimits(VariantLimits(maximumBandwidth: 400_000))
        for segment in ["seg2.ts", "seg3.ts", "seg4.ts"] {
            harness.lab.faults.add(LabFault(pathContains: segment, kind: .status(503)))
        }
        await harness.start("/vod/master.m3u8")
        let failed = await harness.advance(until: { $0.status == .failed }, limit: .seconds(120))
        #expect(failed.gaps.ranges == [MediaTimeRange(start: 8, end: 16)])
        let events = await harness.recorder.events
        let lastStall = try #require(events.lastIndex { if case .stallBegan = $0 { true } else { false } })
        let after = events[lastStall...]
        #expect(after.contains(.statusChanged(.failed)))
        #expect(!after.contains { if case .stallEnded = $0 { true } else { false } },
                "the stall the failure ended is not reported as resumed")
        #expect(failed.stallDuration > .zero, "its time still counts")
        await harness.shutdown()
    }

    @Test func aHungVariantPlaylistIsAbandonedForAnotherVariant() async throws {
        // Live: the download variant's playlist stops answering. The request gives up after two target durations
        // (8 s here, not 20 s times four attempts), the variant is penalized and another one takes over.
        var configuration = HeadlessEngine.Configuration()
        configuration.variantPenalty = .seconds(300)
        let harness = try await EngineHarness(engine: configuration)
        await harness.start("/live/master.m3u8")
        let playing = await harness.advance(until: { $0.status == .playing && $0.downloadingVariant != nil }, limit: .seconds(20))
        let hung = try #require(playing.downloadingVariant?.index)
        harness.lab.faults.add(LabFault(pathContains: "/live/\(hung)/index.m3u8", kind: .delay(milliseconds: 3_600_000)))
        let moved = await harness.advance(until: { $0.downloadingVariant.map { $0.index != hung } ?? false },
                                          limit: .seconds(30))
        #expect(moved.downloadingVariant?.index != hung)
        // It keeps playing from the other variant: at most a short stall while the buffer ran low.
        let later = await harness.advance(until: { $0.status == .playing && $0.playhead > moved.playhead + 20 },
                                          limit: .seconds(60))
        #expect(later.stallDuration < .seconds(8))
        #expect(later.status == .playing)
        let events = await harness.recorder.events
        let timeouts = Self.warnings(events).filter { $0.kind == .network && $0.url?.contains("/live/\(hung)/") == true }
        #expect(!timeouts.isEmpty)
        #expect(Self.switches(events).contains { $0.0 != hung && $0.1 == .failover })
        await harness.shutdown()
    }

    @Test func theStartFailsOverWhenTheFirstVariantsPlaylistIsMissing() async throws {
        let harness = try await EngineHarness(lab: LabConfiguration(vodSegmentCount: 3))
        harness.lab.faults.add(LabFault(pathContains: "/vod/0/index.m3u8", kind: .status(404)))
        await harness.start("/vod/master.m3u8")
        let end = await harness.advance(until: { $0.status == .ended || $0.status == .failed }, limit: .seconds(40))
        #expect(end.status == .ended, "error: \(String(describing: end.error))")
        #expect(harness.lab.requests.matching("/vod/0/index.m3u8").count == 1)
        #expect(!harness.lab.requests.all.contains { $0.path.hasPrefix("/vod/0/seg") })
        await harness.shutdown()
    }
}
