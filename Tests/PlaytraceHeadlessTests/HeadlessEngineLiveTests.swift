import Foundation
import PlaytraceCore
import PlaytraceHeadless
import PlaytraceLab
import PlaytracePlayer
import Testing

@Suite("Headless engine: live and DVR", .serialized)
struct HeadlessEngineLiveTests {
    @Test func startsBehindTheLiveEdgeRefreshesAndFollowsTheWindow() async throws {
        let harness = try await EngineHarness()
        let configuration = harness.lab.configuration
        await harness.start("/live/master.m3u8")
        let playing = await harness.advance(until: { $0.status == .playing }, limit: .seconds(10))
        #expect(playing.streamType == .live)
        #expect(playing.duration == nil)
        // The window holds 6 segments of 4 s; the playhead starts 3 target durations (12 s) before its end.
        let window = playing.seekableRange
        #expect(window.duration.seconds == 24 - 12)
        #expect(abs(playing.playhead.seconds - window.end.seconds) < 1)
        let firstEvents = await harness.recorder.events
        #expect(!firstEvents.contains { if case .playlistRefreshed = $0 { true } else { false } })

        await harness.advance(by: .seconds(30))
        let later = await harness.engine.snapshot()
        #expect(later.status == .playing && later.stallCount == 0)
        #expect(abs(later.playhead.seconds - playing.playhead.seconds - 30) < 0.5)
        #expect(later.seekableRange.start.seconds >= window.start.seconds + 24, "the window slid")
        let refreshes = await harness.recorder.events.compactMap { event -> Int? in
            if case .playlistRefreshed(_, let sequence) = event { return sequence }
            return nil
        }
        #expect(refreshes.count >= 6)
        #expect(refreshes.last! > refreshes.first!)
        // The playhead's stream date trails the lab's live edge by about three target durations.
        let edgeSequence = Int(harness.stopwatch.elapsedSeconds / 4) + configuration.liveHistorySegments
        let edgeDate = configuration.startDate + MediaTime(seconds: Double(edgeSequence * configuration.segmentDuration))
        let lag = try #require(later.streamDate.map { edgeDate - $0 })
        #expect(lag.seconds >= 8 && lag.seconds <= 20, "lag behind the live edge: \(lag)")
        await harness.shutdown()
    }

    @Test func dvrWindowsAreSeekable() async throws {
        let harness = try await EngineHarness()
        await harness.start("/dvr/master.m3u8")
        let playing = await harness.advance(until: { $0.status == .playing }, limit: .seconds(10))
        #expect(playing.streamType == .dvr)
        #expect(playing.seekableRange.duration.seconds == 120 - 12)
        let target = playing.seekableRange.start + 10
        await harness.engine.seek(to: target)
        let sought = await harness.advance(until: { !$0.isSeeking }, limit: .seconds(10))
        #expect(abs(sought.playhead.seconds - target.seconds) < 0.2)
        let date = try #require(sought.streamDate)
        let firstDate = try #require(playing.streamDate.map { $0 - (playing.playhead - playing.seekableRange.start) })
        #expect(abs((date - firstDate).seconds - 10) < 0.2, "the date follows the seek")
        await harness.shutdown()
    }

    @Test func pausingInLiveFallsBehindTheWindowAndCatchesUp() async throws {
        let harness = try await EngineHarness()
        await harness.start("/live/master.m3u8")
        await harness.advance(until: { $0.status == .playing }, limit: .seconds(10))
        await harness.engine.pause()
        await harness.advance(by: .seconds(40))
        await harness.engine.play()
        let resumed = await harness.advance(until: { $0.status == .playing }, limit: .seconds(20))
        #expect(resumed.playhead >= resumed.seekableRange.start, "the playhead is back inside the window")
        await harness.shutdown()
    }
}
