import Foundation
import PlaytraceCore
import PlaytracePlayer
import Testing

@Suite("Visibility and skip trackers on a real player")
@MainActor
struct PlayerInterfaceTrackerTests {
    @Test("The visibility tracker follows its player's playback state")
    func visibilityFollowsPlayer() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("A", log: log)] }
        let player = harness.player!
        let tracker = VisibilityTracker(delay: .seconds(3), clock: harness.clock)
        tracker.player = player
        player.play()
        await harness.advance(by: .seconds(2))
        #expect(!tracker.isUserInterfaceHidden)
        await harness.advance(by: .seconds(2))
        #expect(tracker.isUserInterfaceHidden, "hidden 3 s into playback")
        player.pause()
        await harness.advance(by: .milliseconds(200))
        #expect(!tracker.isUserInterfaceHidden, "a pause from outside shows the controls")
        tracker.player = nil
        tracker.hide()
        #expect(!tracker.isUserInterfaceHidden, "nothing without a player")
        await harness.shutdown()
    }

    /// Pillarbox: `SkipTrackerTests` (`testUnfulfilledRequest`, `testFulfilledRequest`, `testIdenticalRequests`,
    /// `testMixedRequests`, `testResetAfterDelay`).
    @Test("Skip gestures: the second tap skips, further taps add skips, a pause in tapping ends it")
    func skipGestures() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("A", log: log)] }
        let player = harness.player!
        let skips = SkipTracker(count: 2, delay: .milliseconds(400), clock: harness.clock)
        #expect(!skips.requestSkip(.forward), "no player: no skip")
        skips.player = player
        #expect(!skips.requestSkip(.forward) && skips.state == .inactive, "a single tap may be just that")
        #expect(skips.requestSkip(.forward))
        #expect(skips.state == .skippingForward(.seconds(10)))
        #expect(skips.requestSkipForward())
        #expect(skips.state == .skippingForward(.seconds(20)))
        #expect(skips.requestSkip(.backward), "turning around goes on skipping")
        #expect(skips.state == .skippingBackward(.seconds(10)))
        await harness.advance(by: .seconds(1))
        #expect(player.time == MediaTime(seconds: 8), "forward 10 and 10, back 10 from 20: the segment before 10 s")
        #expect(!skips.isSkipping, "inactive 400 ms after the last tap")
        #expect(!skips.requestSkip(.forward))
        await harness.shutdown()
    }
}
