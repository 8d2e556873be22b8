import Foundation
import PlaytraceCore
import PlaytracePlayer
import Testing

@Suite("Progress tracker")
@MainActor
struct ProgressTrackerTests {
    @Test("Follows the playhead at its interval")
    func follows() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("A", log: log)] }
        let tracker = ProgressTracker(interval: .milliseconds(100), clock: harness.clock)
        #expect(!tracker.isProgressAvailable)
        tracker.player = harness.player
        #expect(tracker.range == range(0, 40))
        harness.player.play()
        await harness.advance(by: .seconds(10))
        #expect(abs(tracker.progress - tracker.time.seconds / 40) < 1e-9)
        #expect(tracker.time > MediaTime(seconds: 8) && tracker.time <= MediaTime(seconds: 10))
        tracker.player = nil
        #expect(tracker.progress == 0 && !tracker.isProgressAvailable)
        await harness.shutdown()
    }

    @Test("Immediate seeking: dragging pauses, seeks as it goes, and resumes")
    func immediate() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("A", log: log)] }
        let player = harness.player!
        let tracker = ProgressTracker(interval: .milliseconds(100), clock: harness.clock)
        tracker.player = player
        player.play()
        await harness.advance(by: .seconds(2))
        tracker.isInteracting = true
        #expect(player.playbackState == .paused)
        tracker.progress = 0.5
        await harness.advance(by: .seconds(1))
        #expect(player.time == MediaTime(seconds: 20))
        #expect(tracker.progress == 0.5, "progress is not overwritten while interacting")
        tracker.isInteracting = false
        #expect(player.playbackState == .playing)
        await harness.advance(by: .seconds(2))
        #expect(player.time > MediaTime(seconds: 21))
        await harness.shutdown()
    }

    @Test("Deferred seeking: only the final position seeks, when the interaction ends")
    func deferred() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("A", log: log)] }
        let player = harness.player!
        let tracker = ProgressTracker(interval: .milliseconds(100), seekBehavior: .deferred, clock: harness.clock)
        tracker.player = player
        tracker.isInteracting = true
        tracker.progress = 0.25
        tracker.progress = 0.75
        await harness.advance(by: .seconds(1))
        #expect(player.time == .zero)
        tracker.isInteracting = false
        await harness.advance(by: .seconds(1))
        #expect(player.time == MediaTime(seconds: 30))
        #expect(player.playbackState == .paused, "it was paused before")
        await harness.shutdown()
    }
}
