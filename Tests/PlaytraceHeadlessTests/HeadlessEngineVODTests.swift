import Foundation
import PlaytraceCore
import PlaytraceHeadless
import PlaytraceLab
import PlaytracePlayer
import Testing

@Suite("Headless engine: on-demand playback against the lab", .serialized)
struct HeadlessEngineVODTests {
    @Test func playsToTheEnd() async throws {
        let harness = try await EngineHarness()
        await harness.start("/vod/master.m3u8")
        let end = await harness.advance(until: { $0.status == .ended }, limit: .seconds(60))
        #expect(end.playhead == 40)
        #expect(end.streamType == .onDemand && end.duration == 40)
        #expect(end.stallCount == 0)
        #expect(end.startupTime != nil)
        #expect(end.streamDate == harness.lab.configuration.startDate + MediaTime(seconds: 40))
        #expect(end.variants.count == 3)
        let events = await harness.recorder.events
        #expect(events.contains { if case .firstFrame = $0 { true } else { false } })
        #expect(events.last == .ended || events.contains(.ended))
        #expect(events.contains(.statusChanged(.playing)))
        let segments = harness.lab.requests.all.filter { $0.path.hasSuffix(".ts") }
        #expect(Set(segments.map { $0.path.split(separator: "/").last! }).count == 10, "every segment was fetched")
        let records = events.compactMap { if case .request(let record) = $0 { record } else { nil } }
        #expect(records.count == end.requestCount)
        #expect(records.allSatisfy { $0.succeeded && $0.timeToFirstByte != nil })
        #expect(records.filter { $0.kind == .segment }.reduce(0) { $0 + $1.bytes } <= end.bytesReceived)
        await harness.shutdown()
    }

    @Test func startupWaitsForADelayedPlaylist() async throws {
        let harness = try await EngineHarness()
        harness.lab.faults.add(LabFault(pathContains: "master.m3u8", kind: .delay(milliseconds: 1500), remaining: 1))
        await harness.start("/vod/master.m3u8")
        let playing = await harness.advance(until: { $0.status == .playing }, limit: .seconds(10))
        let startup = try #require(playing.startupTime)
        #expect(startup >= .milliseconds(1500) && startup < .milliseconds(2500))
        await harness.shutdown()
    }

    @Test func seeksForwardBackwardAndClamps() async throws {
        var configuration = HeadlessEngine.Configuration()
        configuration.forwardBufferDuration = 8
        let harness = try await EngineHarness(engine: configuration)
        await harness.start("/vod/master.m3u8")
        await harness.advance(until: { $0.status == .playing }, limit: .seconds(5))
        await harness.advance(by: .seconds(3))
        await harness.engine.seek(to: 30)
        var snapshot = await harness.engine.snapshot()
        #expect(snapshot.isSeeking && snapshot.playhead == 30)
        snapshot = await harness.advance(until: { !$0.isSeeking }, limit: .seconds(5))
        #expect(snapshot.playhead.seconds >= 30 && snapshot.playhead.seconds < 31)
        #expect(snapshot.stallCount == 0, "buffering after a seek is not a stall")
        let requestsBefore = harness.lab.requests.all.count
        await harness.engine.seek(to: 5)
        await harness.engine.seek(to: 12)
        snapshot = await harness.advance(until: { !$0.isSeeking }, limit: .seconds(5))
        #expect(snapshot.playhead.seconds >= 12 && snapshot.playhead.seconds < 13)
        #expect(harness.lab.requests.all.dropFirst(requestsBefore).contains { $0.path.hasSuffix("seg3.ts") },
                "the segment at 12 s was fetched")
        await harness.engine.seek(to: 500)
        snapshot = await harness.engine.snapshot()
        #expect(snapshot.playhead.seconds < 40 && snapshot.playhead.seconds > 39.9, "clamped to the end")
        await harness.engine.seek(to: -10)
        snapshot = await harness.engine.snapshot()
        #expect(snapshot.playhead == 0, "clamped to the start")
        let events = await harness.recorder.events
        #expect(events.contains(.seekEnded(at: 5, completed: false)), "the replaced seek is reported as not completed")
        #expect(events.contains(.seekBegan(target: 30)))
        #expect(events.contains { if case .seekEnded(_, true) = $0 { true } else { false } })
        await harness.shutdown()
    }

    @Test func playsAMediaPlaylistDirectly() async throws {
        let harness = try await EngineHarness(lab: LabConfiguration(vodSegmentCount: 3))
        await harness.start("/vod/1/index.m3u8")
        let end = await harness.advance(until: { $0.status == .ended }, limit: .seconds(30))
        #expect(end.playhead == 12 && end.variants.count == 1 && end.variants[0].bandwidth == 0)
        #expect(harness.lab.requests.matching("/vod/1/seg").count == 3)
        #expect(harness.lab.requests.matching("master.m3u8").isEmpty)
        await harness.shutdown()
    }

    @Test func loadingANewSourceReplacesTheCurrentOne() async throws {
        let harness = try await EngineHarness()
        await harness.start("/vod/master.m3u8")
        await harness.advance(until: { $0.status == .playing && $0.playhead.seconds > 2 }, limit: .seconds(10))
        await harness.engine.load(EngineSource(url: harness.url("/live/master.m3u8")))
        await harness.engine.play()
        let live = await harness.advance(until: { $0.status == .playing }, limit: .seconds(10))
        #expect(live.streamType == .live && live.stallCount == 0)
        #expect(live.requestCount < harness.lab.requests.all.count, "counters restart with the new source")
        await harness.advance(by: .seconds(5))
        let requestsBefore = harness.lab.requests.matching("/vod/").count
        await harness.advance(by: .seconds(5))
        #expect(harness.lab.requests.matching("/vod/").count == requestsBefore, "nothing of the old source is fetched")
        await harness.shutdown()
    }

    @Test func seekAfterTheEndReplays() async throws {
        let harness = try await EngineHarness(lab: LabConfiguration(vodSegmentCount: 3))
        await harness.start("/vod/master.m3u8")
        await harness.advance(until: { $0.status == .ended }, limit: .seconds(30))
        await harness.engine.seek(to: 0)
        let snapshot = await harness.advance(until: { $0.status == .playing && $0.playhead.seconds > 1 }, limit: .seconds(5))
        #expect(snapshot.playhead.seconds < 3)
        await harness.shutdown()
    }
}
