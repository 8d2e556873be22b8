import Foundation
import PlaytraceCore
import PlaytraceLab
import PlaytracePlayer
import Testing

/// Live and DVR streams, served by the lab as real media: its 80 s content looped, each loop's timestamps running on
/// from the last (`LabConfiguration/liveLoopSegments`); 4 s segments dated from the lab's start date, a live window
/// of 6 segments, a DVR window of 30.
extension EngineConformance {
    /// Live playback starts three target durations from the live edge, follows the playlist as it grows, across a
    /// loop of the content (segment 40) without a jump, and keeps each position's program date time: the date minus
    /// the playhead stays a whole number of segments after the lab's start date.
    func followsALiveStream() async throws {
        // 40 segments exist at the start: the window is segments 34 to 39, playback starts in 37, the loop comes at 40.
        try await withSession(path: format.livePath, configure: { $0.liveHistorySegments = 40 }) { session in
            await session.engine.setReportsProgress(true)
            await session.engine.load(EngineSource(url: session.url))
            await session.engine.play()
            try await session.waitFor("the first frame") { await session.engine.snapshot().status == .playing }
            let start = await session.engine.snapshot()
            #expect(start.streamType == .live)
            #expect(start.duration == nil)
            // The seekable range ends three target durations before the window's end: where live playback starts.
            #expect(abs((start.playhead - start.seekableRange.end).seconds) <= 1, "starts at the live point: \(start.playhead) in \(start.seekableRange)")
            // Latency as hls.js tells it: to the playlist's end, the three target durations (12 s) aimed at.
            let (latency, target) = try #require(start.liveLatency, "the live edge is known")
            #expect(target.seconds == 12 && abs(latency.seconds - 12) <= 1, "latency \(latency), target \(target)")
            let origin = try #require(Self.dateOrigin(start), "a date at the playhead")
            try await session.waitFor("the content's loop", within: .seconds(30)) {
                await session.engine.snapshot().playhead > start.playhead + MediaTime(seconds: 15)
            }
            let later = await session.engine.snapshot()
            #expect(later.status == .playing && later.stallCount == 0)
            #expect(later.seekableRange.end > start.seekableRange.end, "the window grew: \(start.seekableRange) → \(later.seekableRange)")
            #expect(later.playhead >= later.seekableRange.start && later.playhead <= later.seekableRange.end + MediaTime(seconds: 12),
                    "\(later.playhead) in the window \(later.seekableRange)")
            let after = try #require(Self.dateOrigin(later))
            #expect(abs(after - origin) <= Self.positionTolerance, "the date follows the playhead: \(origin) → \(after)")
            let errors = await session.events.compactMap { if case .error(let error) = $0 { error.message } else { nil } }
            #expect(errors.isEmpty, "\(errors)")
            let movements = await session.movements
            let gaps = zip(movements, movements.dropFirst()).filter { abs(($1.from - $0.to).seconds) > 0.001 }
            #expect(gaps.isEmpty, "progress is contiguous across refreshes and the loop: \(gaps.prefix(3))")
        }
    }

    /// A seek back in a DVR window lands at its target or at the start of the segment that covers it, plays on
    /// from there, and keeps the stream's dates.
    func seeksBackInADVRWindow() async throws {
        try await withSession(path: format.dvrPath) { session in
            await session.engine.load(EngineSource(url: session.url))
            await session.engine.play()
            try await session.waitFor("the first frame") { await session.engine.snapshot().status == .playing }
            let live = await session.engine.snapshot()
            #expect(live.streamType == .dvr)
            let origin = try #require(Self.dateOrigin(live), "a date at the playhead")
            let target = live.seekableRange.start + MediaTime(seconds: 10)
            await session.engine.seek(to: target, toleranceBefore: .zero, toleranceAfter: .zero)
            let landing = try await session.seekEnd()
            #expect(landing.completed)
            let segment = MediaTime(seconds: 4) + MediaTime(seconds: Self.positionTolerance)
            #expect(landing.position <= target + MediaTime(seconds: Self.positionTolerance) && landing.position >= target - segment,
                    "lands at \(landing.position) for \(target)")
            try await session.waitFor("playback after the seek") {
                await session.engine.snapshot().playhead > target + MediaTime(seconds: 1)
            }
            let after = try #require(Self.dateOrigin(await session.engine.snapshot()))
            #expect(abs(after - origin) <= Self.positionTolerance, "the date follows the playhead: \(origin) → \(after)")
        }
    }

    /// The stream date at the playhead minus the playhead, in seconds after the lab's start date, modulo a segment:
    /// 0 (or 4) when the engine's timeline and the playlist's dates agree.
    static func dateOrigin(_ snapshot: EngineSnapshot) -> Double? {
        guard let date = snapshot.streamDate else { return nil }
        let offset = date.secondsSince1970 - LabConfiguration().startDate.secondsSince1970 - snapshot.playhead.seconds
        // In (-2, 2]: an offset a hair below a whole number of segments (negative ones included) is that number.
        let phase = offset.truncatingRemainder(dividingBy: 4)
        return phase > 2 ? phase - 4 : (phase <= -2 ? phase + 4 : phase)
    }
}
