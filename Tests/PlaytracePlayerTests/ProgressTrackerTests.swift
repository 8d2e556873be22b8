import Foundation
import PlaytraceCore
import PlaytraceHeadless
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
        #expect(tracker.range == 0...1 && tracker.timeRange == range(0, 40))

        harness.player.play()
        await harness.advance(by: .seconds(10))
        #expect(abs(tracker.progress - tracker.time.seconds / 40) < 1e-9)
        #expect(tracker.time > MediaTime(seconds: 8) && tracker.time <= MediaTime(seconds: 10))
        tracker.player = nil
        #expect(tracker.progress == 0 && !tracker.isProgressAvailable && tracker.range == 0...0)
        #expect(tracker.date() == nil)
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
        let start = try #require(player.date)
        #expect(tracker.date() == (start + MediaTime(seconds: 30)).date, "the date the progress stands for")
        tracker.isInteracting = false
        await harness.advance(by: .seconds(1))
        #expect(player.time == MediaTime(seconds: 30))
        #expect(player.playbackState == .paused, "it was paused before")
        await harness.shutdown()
    }

    /// Pillarbox pauses video only while dragging (its `ProgressTracker` checks the player's media type).
    @Test("Audio keeps playing while the user drags; only video pauses")
    func audioPlaysOn() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("Radio", log: log, path: "radio/master.m3u8")] }
        let player = harness.player!
        let tracker = ProgressTracker(interval: .milliseconds(100), clock: harness.clock)
        tracker.player = player
        player.play()
        await harness.advance(by: .seconds(2))
        #expect(player.mediaType == .audio)
        tracker.isInteracting = true
        #expect(player.playbackState == .playing)
        tracker.progress = 0.5
        tracker.isInteracting = false
        await harness.advance(by: .seconds(1))
        #expect(player.playbackState == .playing && player.time >= MediaTime(seconds: 20))
        await harness.shutdown()
    }

    /// Pillarbox: `ProgressTrackerPlaybackStateTests.testTransferInteractionBetweenPlayers`.
    @Test("A player change mid-drag resumes the old player and pauses the new one")
    func playerChangeMidDrag() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("A", log: log)] }
        let first = harness.player!
        let secondEngine = harness.engines.count
        let second = Player(item: harness.item("B", log: log), clock: harness.clock) {
            HeadlessEngine(clock: harness.clock, transport: harness.transport)
        }
        first.play()
        second.play()
        await harness.advance(by: .seconds(2))
        #expect(harness.engines.count == secondEngine, "the second player's engines are its own")
        let tracker = ProgressTracker(interval: .milliseconds(100), clock: harness.clock)
        tracker.player = first
        tracker.isInteracting = true
        #expect(first.playbackState == .paused && second.playbackState == .playing)
        tracker.player = second
        #expect(first.playbackState == .playing, "the old player resumes")
        #expect(second.playbackState == .paused, "the new one is paused: the drag goes on with it")
        // Played meanwhile, then assigned again (a view appearing again): paused again, as Pillarbox's willSet and
        // didSet run on every assignment.
        second.play()
        tracker.player = second
        #expect(second.playbackState == .paused)
        tracker.isInteracting = false
        #expect(second.playbackState == .playing)
        second.removeAllItems()
        await harness.shutdown()
    }
}
