import Foundation
import PlaytraceCore
import PlaytracePlayer
import Testing

@Suite("Player: seeking and blocked ranges")
@MainActor
struct PlayerSeekingTests {
    @Test("No blocked media time is ever played; a blocked start moves past the range")
    func blockedRangesNeverPlay() async throws {
        let log = TrackerLog()
        let blocked = [range(0, 2.05), range(10.03, 14.37), range(20, 22), range(21, 25.5)]
        let harness = try await PlayerHarness { h in
            [h.item("A", log: log, timeRanges: blocked.map { TimeRange(kind: .blocked, range: $0) })]
        }
        let player = harness.player!
        player.play()
        await harness.advance(until: { player.time > MediaTime(seconds: 35) }, limit: .seconds(60))
        let played = try #require(await harness.engines.first?.snapshot().playedRanges)
        let flattened = MediaTimeRangeSet(blocked)
        for range in flattened.ranges {
            #expect(played.overlap(with: range) == .zero, "played \(played.overlap(with: range)) of \(range)")
        }
        #expect(played.ranges.first?.start == MediaTime(seconds: 2.05), "the start moved past the first range")
        #expect(played.overlap(with: range(2.05, 35)) >= MediaTime(seconds: 32.9) - flattened.overlap(with: range(2.05, 35)),
                "everything else played: \(played.ranges)")
        await harness.shutdown()
    }

    @Test("A blocked range at the very end ends the item cleanly, and replay plays it again")
    func blockedRangeAtTheEnd() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in
            [h.item("A", log: log, timeRanges: [TimeRange(kind: .blocked, range: range(30, 40))])]
        }
        let player = harness.player!
        player.play()
        await harness.advance(until: { player.playbackState == .ended }, limit: .seconds(60))
        #expect(player.engineSnapshot.playedRanges.overlap(with: range(30, 40)) == .zero)
        player.replay()
        await harness.advance(by: .seconds(4))
        #expect(player.playbackState == .playing)
        let resumed = player.time
        #expect(resumed > MediaTime(seconds: 2))
        await harness.advance(by: .seconds(2))
        #expect(player.time > resumed, "progress moves after replay")
        await harness.advance(until: { player.playbackState == .ended }, limit: .seconds(60))
        await harness.shutdown()
    }

    @Test("Seeks into a blocked range land at its end going forward, just before it going back")
    func seeksAroundBlockedRanges() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in
            [h.item("A", log: log, timeRanges: [TimeRange(kind: .blocked, range: range(20, 25))])]
        }
        let player = harness.player!
        var results: [Bool] = []
        player.seek(.at(MediaTime(seconds: 22))) { results.append($0) }
        await harness.advance(by: .seconds(1))
        #expect(player.time == MediaTime(seconds: 25))
        player.seek(.at(MediaTime(seconds: 36)))
        await harness.advance(by: .seconds(1))
        player.seek(.at(MediaTime(seconds: 21))) { results.append($0) }
        await harness.advance(by: .seconds(1))
        #expect(player.time == MediaTime(seconds: 20) - BlockedRanges.backwardMargin)
        #expect(results == [true, true])
        await harness.shutdown()
    }

    /// Pillarbox: `QueuePlayerSmoothSeekTests.testCompletionsForMultipleSeeksEndingWithSmoothSeek` and
    /// `QueuePlayerSeekTests.testCompletionsForMultipleSmoothSeeksEndingWithSeek`.
    @Test("Smooth seeking sends the first and the last target; the ones in between complete with true")
    func smoothSeeking() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("A", log: log)] }
        let player = harness.player!
        var results: [String: Bool] = [:]
        player.seek(.at(MediaTime(seconds: 5))) { results["5"] = $0 }
        player.seek(.at(MediaTime(seconds: 10))) { results["10"] = $0 }
        player.seek(.at(MediaTime(seconds: 15))) { results["15"] = $0 }
        #expect(player.isSeeking && player.isBusy)
        await harness.advance(by: .seconds(1))
        #expect(results == ["5": true, "10": true, "15": true])
        #expect(player.time == MediaTime(seconds: 15))
        player.seek(.at(MediaTime(seconds: 20))) { results["20"] = $0 }
        player.seek(.at(MediaTime(seconds: 25))) { results["25"] = $0 }
        player.seek(.at(MediaTime(seconds: 30)), smooth: false) { results["30"] = $0 }
        #expect(results["25"] == false, "a waiting seek that a non-smooth one replaces completes with false at once")
        await harness.advance(by: .seconds(1))
        #expect(results["20"] != nil, "sent at once, and completed (or interrupted by the engine)")
        #expect(results["30"] == true && player.time == MediaTime(seconds: 30))
        #expect(!player.isSeeking)
        let seeks = (log.metricEvents["A"] ?? []).filter { if case .seekBegan = $0.kind { true } else { false } }
        #expect(seeks.count == 4, "the engine saw the first and last of each run")
        await harness.shutdown()
    }

    @Test("Skips, skip to default, chapters, and seeks clamped to the seekable range")
    func skipsAndChapters() async throws {
        let log = TrackerLog()
        let chapters = [Chapter(id: "1", title: "One", timeRange: range(0, 12)),
                        Chapter(id: "2", title: "Two", timeRange: range(12, 40))]
        let harness = try await PlayerHarness { h in [h.item("A", log: log, chapters: chapters)] }
        let player = harness.player!
        #expect(player.canSkipForward() && player.canSkipBackward(), "Pillarbox: backward whenever the range is valid")
        player.skipForward()
        player.skipForward()
        await harness.advance(by: .seconds(1))
        #expect(player.time == MediaTime(seconds: 20), "successive skips add up")
        #expect(player.currentChapter?.id == "2")
        player.skipBackward()
        await harness.advance(by: .seconds(1))
        #expect(player.time == MediaTime(seconds: 8), "a backward skip may land before its target: the segment's start")
        player.seek(to: chapters[1])
        await harness.advance(by: .seconds(1))
        #expect(player.time == MediaTime(seconds: 12))
        player.seek(.at(MediaTime(seconds: 400)))
        await harness.advance(by: .seconds(1))
        #expect(player.time <= MediaTime(seconds: 40) && player.time > MediaTime(seconds: 39))
        #expect(player.canSkipToDefault())
        player.skipToDefault()
        await harness.advance(by: .seconds(1))
        #expect(player.time == .zero)
        await harness.shutdown()
    }

    @Test("Seeking to a date uses the stream's program-date-time")
    func seekToDate() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("A", log: log)] }
        let player = harness.player!
        let start = try #require(player.date)
        player.seek(to: (start + MediaTime(seconds: 17)).date)
        await harness.advance(by: .seconds(1))
        #expect(abs(player.time.seconds - 17) < 0.001)
        await harness.shutdown()
    }

    /// Pillarbox: `ItemNavigationSmartBackwardTests` (`testReturnForOnDemandAtBeginningWithoutPreviousItem`,
    /// `testReturnForOnDemandNotAtBeginning`, `testReturnForOnDemandAtBeginningWithPreviousItem`).
    @Test("Smart navigation: previous restarts the item 3 s in or without a previous item, otherwise goes back")
    func smartNavigation() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("A", log: log), h.item("B", log: log)] }
        let player = harness.player!
        player.advanceToNextItem()
        await harness.advance(by: .seconds(1))
        #expect(player.currentItem === player.items[1])
        player.seek(.at(MediaTime(seconds: 10)))
        await harness.advance(by: .seconds(1))
        #expect(player.canReturnToPreviousItem())
        player.returnToPreviousItem()
        await harness.advance(by: .seconds(1))
        #expect(player.currentItem === player.items[1])
        #expect(player.time == .zero)
        player.returnToPreviousItem()
        await harness.advance(by: .seconds(1))
        #expect(player.currentItem === player.items[0])
        #expect(player.canReturnToPreviousItem(), "on demand without a previous item: it restarts")
        player.seek(.at(MediaTime(seconds: 2)))
        await harness.advance(by: .seconds(1))
        player.returnToPreviousItem()
        await harness.advance(by: .seconds(1))
        #expect(player.currentItem === player.items[0] && player.time == .zero)
        await harness.shutdown()
    }

    /// Pillarbox: `ItemNavigationBackwardTests` (`testReturnToPreviousItem`, `testReturnToPreviousItemAtFront`).
    @Test("Immediate navigation: previous always goes to the previous item, and not without one")
    func immediateNavigation() async throws {
        let log = TrackerLog()
        var configuration = Player.Configuration()
        configuration.navigationMode = .immediate
        let harness = try await PlayerHarness(player: configuration) { h in [h.item("A", log: log), h.item("B", log: log)] }
        let player = harness.player!
        player.seek(.at(MediaTime(seconds: 10)))
        await harness.advance(by: .seconds(1))
        #expect(!player.canReturnToPreviousItem())
        player.returnToPreviousItem()
        await harness.advance(by: .seconds(1))
        #expect(player.time == MediaTime(seconds: 10), "nothing happened")
        player.advanceToNextItem()
        await harness.advance(by: .seconds(1))
        player.seek(.at(MediaTime(seconds: 10)))
        await harness.advance(by: .seconds(1))
        player.returnToPreviousItem()
        await harness.advance(by: .seconds(1))
        #expect(player.currentItem === player.items[0])
        await harness.shutdown()
    }
}
