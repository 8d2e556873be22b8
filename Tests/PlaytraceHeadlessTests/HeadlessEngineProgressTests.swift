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
