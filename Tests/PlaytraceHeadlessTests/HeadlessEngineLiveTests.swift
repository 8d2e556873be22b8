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
        // Latency as hls.js measures it: to the playlist's end, the hold-back of 12 s aimed at.
        let (latency, target) = try #require(playing.liveLatency)
        #expect(target.seconds == 12 && abs(latency.seconds - 12) < 1, "\(latency) \(target)")
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

    /// A live stream's ad breaks are reported as its playlists bring them, not only those of the first one; a
    /// break whose opening cue slid out of the window stays the same break; breaks that ended before the window
    /// are forgotten.
    @Test func adBreaksAreReportedAsTheLiveWindowBringsThem() async throws {
        let harness = try await EngineHarness()
        await harness.start("/live/master.m3u8")
        let first = await harness.advance(until: { $0.status == .playing }, limit: .seconds(10))
        // The first window (segments 24 to 29) opens break 2 at segment 27, signalled both ways, still open.
        #expect(Set(first.adBreaks.map(\.id)) == ["live-break-2", "cue-27"])
        #expect(first.adBreaks.allSatisfy { !$0.isClosed && $0.start == MediaTime(seconds: 12) })
        // Announced for 16 s; its end comes in a later playlist (segment 30, 12 s after its start) as a second tag
        // of its date range, with END-DATE and SCTE35-IN: the break closes then, at 12 s, not at its planned 16.
        #expect(first.adBreaks.allSatisfy { $0.duration == MediaTime(seconds: 16) })
        let closing = await harness.advance(until: { snapshot in
            snapshot.adBreaks.contains { $0.id == "live-break-2" && $0.isClosed }
        }, limit: .seconds(20))
        let closed = try #require(closing.adBreaks.first { $0.id == "live-break-2" })
        #expect(closed.duration == MediaTime(seconds: 12) && closed.start == MediaTime(seconds: 12), "\(closed)")
        await harness.advance(by: .seconds(20))
        // The window now starts inside the break (CUE-OUT-CONT first): still cue-27, now closed by its CUE-IN.
        let middle = await harness.engine.snapshot()
        let cue = try #require(middle.adBreaks.first { $0.source == "cue-out/cue-in" })
        #expect(middle.adBreaks.filter { $0.source == "cue-out/cue-in" }.count == 1, "\(middle.adBreaks.map(\.id))")
        #expect(cue.id == "cue-27" && cue.isClosed && cue.duration == MediaTime(seconds: 12))
        await harness.advance(by: .seconds(20))
        let later = await harness.engine.snapshot()
        // Break 3 opens at segment 37, 40 s after segment 27's start; break 2 ended before the window.
        #expect(Set(later.adBreaks.map(\.id)) == ["live-break-3", "cue-37"], "\(later.adBreaks.map(\.id))")
        #expect(later.adBreaks.allSatisfy { $0.start == MediaTime(seconds: 52) })
        let reported = await harness.recorder.events.compactMap { event -> [String]? in
            if case .adBreaksChanged(let breaks) = event { return breaks.map(\.id) } else { return nil }
        }
        #expect(reported.contains { $0.contains("live-break-3") } && !(reported.first ?? []).contains("live-break-3"))
        await harness.shutdown()
    }

    /// A live origin that stops: its playlists keep answering, unchanged. As ExoPlayer, the engine gives up after
    /// 3.5 target durations without a change (each variant in turn), instead of waiting for ever.
    @Test func aLivePlaylistThatStopsChangingFailsTheItem() async throws {
        let harness = try await EngineHarness()
        await harness.start("/live/master.m3u8")
        await harness.advance(until: { $0.status == .playing }, limit: .seconds(10))
        // From now on every media playlist is the same two old segments.
        harness.lab.faults.add(LabFault(pathContains: "index.m3u8", kind: .body(
            "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:24\n#EXTINF:4,\nseg24.ts\n#EXTINF:4,\nseg25.ts\n")))
        let stopped = await harness.advance(until: { $0.status == .failed }, limit: .seconds(90))
        #expect(stopped.status == .failed)
        let message = stopped.error?.message ?? ""
        #expect(message.contains("the live playlist has not changed for") && message.contains("the stream stopped"), "\(message)")
        #expect(harness.stopwatch.elapsedSeconds < 80, "it gave up within a few target durations of each variant")
        await harness.shutdown()
    }
}

@Suite("Headless engine: a live playlist of any length")
struct HeadlessEngineLongLiveTests {
    @Test("A live playlist of 100,000 segments plays; the engine keeps its last segments only, and follows it")
    func longLiveWindow() async throws {
        var configuration = HeadlessEngine.Configuration()
        configuration.maximumPlaylistSegments = 500
        let harness = try await EngineHarness(engine: configuration)
        await harness.start("/long-live/100000/index.m3u8")
        let playing = await harness.advance(until: { $0.status == .playing }, limit: .seconds(20))
        #expect(playing.status == .playing)
        // 500 segments of 4 s, the playhead three target durations from the live edge.
        #expect(playing.seekableRange.duration.seconds == 500 * 4 - 12)
        await harness.advance(by: .seconds(20))
        let later = await harness.engine.snapshot()
        #expect(later.status == .playing && later.stallCount == 0)
        #expect(later.seekableRange.start.seconds >= playing.seekableRange.start.seconds + 16, "the window slid")
        #expect(later.seekableRange.duration.seconds == 500 * 4 - 12)
        let date = try #require(later.streamDate)
        let edge = harness.lab.configuration.startDate
            + MediaTime(seconds: Double(LabStreamsProbe.longLiveLatest(count: 100_000, elapsed: harness.stopwatch.elapsedSeconds) * 4))
        #expect((edge - date).seconds > 4 && (edge - date).seconds < 20, "the date follows the stream: \(edge - date)")
        await harness.shutdown()
    }
}

/// The long live stream's live edge, as the lab computes it (segments of 4 s, the window full from the start).
enum LabStreamsProbe {
    static func longLiveLatest(count: Int, elapsed: Double) -> Int { Int((elapsed / 4).rounded(.down)) + count - 1 }
}
