import Foundation
import PlaytraceCore
import PlaytracePlayer
import Testing

/// Where a progress-observing tracker writes what it receives.
@MainActor
final class ProgressLog {
    var reports: [PlaybackProgress] = []
}

/// A tracker that needs every movement of the playhead, as an ad tracker does.
final class CrossingTracker: PlayerItemTracker {
    private let log: ProgressLog
    init(configuration: ProgressLog) { log = configuration }
    func enable(for player: Player) {}
    func updateMetadata(to metadata: Void) {}
    func updateProperties(to properties: TrackerProperties) {}
    func disable(with properties: TrackerProperties) {}
    var observesProgress: Bool { true }
    func updateProgress(_ progress: PlaybackProgress) { log.reports.append(progress) }
}

@Suite("Player: progress reports for trackers that observe them", .serialized)
@MainActor
struct PlayerProgressTests {
    @Test("A tracker that observes progress gets every movement of the playhead, contiguous; none once tracking is off")
    func observed() async throws {
        let log = ProgressLog()
        let h = try await PlayerHarness { h in
            [PlayerItem.simple(url: h.url("vod/master.m3u8"), metadata: TestMetadata(title: "A"),
                               trackerAdapters: [CrossingTracker.adapter(configuration: log, behavior: .optional) { _ in () }])]
        }
        h.player.play()
        await h.advance(until: { h.player.time.seconds >= 5 }, limit: .seconds(30))
        let reports = log.reports
        #expect(reports.count >= 40)
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.to == $1.from })
        #expect(reports.first?.from == .zero)
        h.player.isTrackingEnabled = false
        await h.advance(by: .seconds(1))
        let count = log.reports.count
        await h.advance(by: .seconds(2))
        #expect(log.reports.count == count, "the engine stops reporting when no enabled tracker needs it")
        await h.shutdown()
    }

    @Test("Without such a tracker the engine is not asked for progress")
    func notObserved() async throws {
        let log = TrackerLog()
        let h = try await PlayerHarness { h in [h.item("A", log: log)] }
        let engine = try #require(h.engines.first)
        let recorder = Task { () -> Int in
            var count = 0
            for await event in engine.events() {
                if case .progressed = event { count += 1 }
                if case .ended = event { break }
            }
            return count
        }
        h.player.play()
        await h.advance(until: { h.player.time.seconds >= 3 }, limit: .seconds(30))
        await h.shutdown()
        recorder.cancel()
        #expect(await recorder.value == 0)
    }
}
