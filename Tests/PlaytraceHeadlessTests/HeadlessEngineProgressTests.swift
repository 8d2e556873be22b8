import Foundation
import PlaytraceCore
import PlaytraceHeadless
import PlaytracePlayer
import Testing

/// Progress reports: every movement of the playhead, contiguous, with its dates — what an ad tracker observes.
@Suite("Headless engine: progress reports", .serialized)
struct HeadlessEngineProgressTests {
    private func progress(_ events: [EngineEvent]) -> [PlaybackProgress] {
        events.compactMap { if case .progressed(let progress) = $0 { progress } else { nil } }
    }

    @Test("While on, each tick's movement is reported: contiguous, covering what was played, with stream dates")
    func contiguous() async throws {
        let harness = try await EngineHarness()
        await harness.engine.setReportsProgress(true)
        await harness.start("vod/master.m3u8")
        let snapshot = await harness.advance(until: { $0.playhead.seconds >= 6 }, limit: .seconds(30))
        let reports = progress(await harness.recorder.events)
        #expect(reports.count >= 50, "\(reports.count) reports for 6 s of playback in 100 ms ticks")
        #expect(reports.allSatisfy { $0.to > $0.from && $0.rate == 1 })
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.to == $1.from }, "no hole between reports")
        #expect(reports.first?.from == .zero)
        #expect(reports.last?.to == snapshot.playhead)
        // The lab's on-demand stream carries program-date-time: each report has its dates, as far apart as its span.
        for report in reports {
            guard let fromDate = report.fromDate, let toDate = report.toDate else {
                Issue.record("a report without dates: \(report)")
                break
            }
            #expect(abs((toDate.secondsSince1970 - fromDate.secondsSince1970) - (report.to.seconds - report.from.seconds)) < 1e-6)
        }
        await harness.shutdown()
    }

    @Test("A seek is a hole between reports, never a report; off by default, nothing is reported")
    func seekAndDefault() async throws {
        let harness = try await EngineHarness()
        await harness.start("vod/master.m3u8")
        await harness.advance(until: { $0.playhead.seconds >= 2 }, limit: .seconds(30))
        #expect(progress(await harness.recorder.events).isEmpty)
        await harness.engine.setReportsProgress(true)
        await harness.advance(by: .seconds(1))
        await harness.engine.seek(to: MediaTime(seconds: 20))
        await harness.advance(until: { !$0.isSeeking && $0.playhead.seconds >= 21 }, limit: .seconds(30))
        let reports = progress(await harness.recorder.events)
        let holes = zip(reports, reports.dropFirst()).filter { $0.to != $1.from }
        #expect(holes.count == 1, "one hole, at the seek: \(holes)")
        #expect(holes.first.map { $0.1.from.seconds >= 20 } == true)
        #expect(reports.allSatisfy { $0.to.seconds - $0.from.seconds <= 0.5 }, "no report spans the seek")
        await harness.shutdown()
    }
}

/// Progress boundaries: a report ends at each boundary the playhead reaches, by time or by stream date.
@Suite("Headless engine: progress boundaries", .serialized)
struct HeadlessEngineBoundaryTests {
    private func ends(_ events: [EngineEvent]) -> [Double] {
        events.compactMap { if case .progressed(let progress) = $0 { progress.to.seconds } else { nil } }
    }

    @Test("A report ends just past each boundary time and date, between two regular ticks; playback is unchanged")
    func boundaries() async throws {
        let harness = try await EngineHarness()
        await harness.engine.setReportsProgress(true)
        await harness.start("vod/master.m3u8")
        await harness.advance(until: { $0.playhead.seconds > 0 }, limit: .seconds(30))
        let origin = try #require(await harness.engine.snapshot().streamDate)
        let position = await harness.engine.snapshot().playhead.seconds
        let start = origin.secondsSince1970 - position
        // Times and dates that regular 100 ms ticks would pass without stopping on, one date between two times.
        await harness.engine.setProgressBoundaries([
            .time(MediaTime(seconds: 2.0437)), .date(StreamDate(secondsSince1970: start + 3.2111)),
            .time(MediaTime(seconds: 4.9999)), .time(MediaTime(seconds: 1.0)),
        ])
        let snapshot = await harness.advance(until: { $0.playhead.seconds >= 6 }, limit: .seconds(30))
        let reportEnds = ends(await harness.recorder.events)
        for boundary in [2.0437, 3.2111, 4.9999] {
            let end = reportEnds.first { $0 >= boundary }
            #expect(end.map { $0 - boundary < 1e-5 } == true, "a report ends at \(boundary): \(String(describing: end))")
        }
        #expect(snapshot.playhead.seconds < 6.1, "the playhead keeps its pace")
        // Boundaries add reports; they do not move the regular ticks' pace (about 10 per second).
        #expect(reportEnds.count <= 6 * 10 + 3 + 2)
        await harness.shutdown()
    }
}
