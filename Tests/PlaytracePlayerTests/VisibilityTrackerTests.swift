import Clocks
import PlaytraceCore
import Testing
@testable import PlaytracePlayer

/// The tracker's wait runs on a test clock. Its task may register the sleep a little after the test's step, so
/// the tests advance in steps and assert on what cannot happen early (hiding before the delay) and what must have
/// happened after a margin.
@MainActor
@Suite("Visibility tracker")
struct VisibilityTrackerTests {
    let clock = TestClock<Duration>()

    /// Advances by `total` in steps of 100 ms, letting the main actor run between steps.
    func advance(by total: Duration) async {
        var elapsed = Duration.zero
        while elapsed < total {
            await clock.advance(by: .milliseconds(100))
            for _ in 0..<5 { await Task.yield() }
            elapsed += .milliseconds(100)
        }
    }

    @Test func hidesByItselfOnlyWhilePlaying() async {
        let tracker = VisibilityTracker(delay: .seconds(3), clock: clock)
        tracker.update(playbackState: .playing)
        await advance(by: .milliseconds(2900))
        #expect(!tracker.isUserInterfaceHidden, "not before the delay")
        await advance(by: .seconds(2))
        #expect(tracker.isUserInterfaceHidden, "hidden after the delay")
    }

    @Test func neverHidesByItselfWhilePaused() async {
        let tracker = VisibilityTracker(clock: clock)
        tracker.update(playbackState: .paused)
        await advance(by: .seconds(10))
        #expect(!tracker.isUserInterfaceHidden)
    }

    @Test func interactionRestartsTheWait() async {
        let tracker = VisibilityTracker(delay: .seconds(3), clock: clock)
        tracker.player = Self.emptyPlayer()
        tracker.update(playbackState: .playing)
        await advance(by: .seconds(2))
        tracker.reset()
        await advance(by: .seconds(2))
        #expect(!tracker.isUserInterfaceHidden, "4 s after the start, but 2 s after the interaction")
        await advance(by: .seconds(3))
        #expect(tracker.isUserInterfaceHidden)
    }

    @Test func pausingFromOutsideShowsTheControls() async {
        let tracker = VisibilityTracker(delay: .seconds(1), clock: clock)
        tracker.update(playbackState: .playing)
        await advance(by: .seconds(2))
        #expect(tracker.isUserInterfaceHidden)
        tracker.update(playbackState: .paused)
        #expect(!tracker.isUserInterfaceHidden)
        tracker.update(playbackState: .playing)
        await advance(by: .seconds(2))
        #expect(tracker.isUserInterfaceHidden, "hides again once playback resumes")
        tracker.update(playbackState: .ended)
        #expect(!tracker.isUserInterfaceHidden, "shown at the end")
    }

    /// A player without items (it never makes an engine): the tracker needs one to act.
    static func emptyPlayer() -> Player {
        Player { preconditionFailure("a player without items makes no engine") }
    }

    /// Pillarbox: `VisibilityTrackerTests.testNoToggleWithoutPlayer`.
    @Test func nothingWithoutAPlayer() {
        let tracker = VisibilityTracker(clock: clock)
        tracker.toggle()
        tracker.hide()
        #expect(!tracker.isUserInterfaceHidden)
        tracker.player = Self.emptyPlayer()
        tracker.toggle()
        #expect(tracker.isUserInterfaceHidden)
    }

    @Test func voiceOverKeepsControlsVisible() async {
        let tracker = VisibilityTracker(delay: .seconds(1), clock: clock)
        tracker.player = Self.emptyPlayer()
        tracker.hide()
        tracker.isVoiceOverRunning = true
        #expect(!tracker.isUserInterfaceHidden, "VoiceOver starting shows the controls")
        tracker.update(playbackState: .playing)
        await advance(by: .seconds(3))
        #expect(!tracker.isUserInterfaceHidden, "no auto-hide while VoiceOver runs")
        tracker.isVoiceOverRunning = false
        await advance(by: .seconds(2))
        #expect(tracker.isUserInterfaceHidden)
    }

    @Test func toggleShowAndHide() async {
        let tracker = VisibilityTracker(delay: .seconds(1), clock: clock)
        tracker.player = Self.emptyPlayer()
        tracker.toggle()
        #expect(tracker.isUserInterfaceHidden)
        tracker.toggle()
        #expect(!tracker.isUserInterfaceHidden)
        tracker.hide()
        #expect(tracker.isUserInterfaceHidden)
        tracker.update(playbackState: .playing)
        #expect(tracker.isUserInterfaceHidden, "playing does not show hidden controls")
        tracker.show()
        #expect(!tracker.isUserInterfaceHidden)
        await advance(by: .seconds(2))
        #expect(tracker.isUserInterfaceHidden, "shown controls hide again while playing")
        tracker.reset()
        #expect(tracker.isUserInterfaceHidden, "reset does not show hidden controls")
    }

    @Test func aHiddenStartStaysHiddenUntilShown() async {
        let tracker = VisibilityTracker(isUserInterfaceHidden: true, clock: clock)
        tracker.update(playbackState: .playing)
        await advance(by: .seconds(5))
        #expect(tracker.isUserInterfaceHidden)
    }
}
