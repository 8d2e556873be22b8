import Foundation
import PlaytraceCore
import PlaytraceLab
import PlaytracePlayer
import Testing

/// Pillarbox's seek and skip rules, each named after the Pillarbox test that states it.
@Suite("Player: seeks and skips by Pillarbox's rules")
@MainActor
struct PlayerSkipRulesTests {
    /// Pillarbox: `SeekTests.testSeekWhenEmpty`, `SkipBackwardTests.testSkipWhenEmpty`,
    /// `SkipForwardTests.testSkipWhenEmpty`, `SkipToDefaultTests.testSkipWhenEmpty`, `SkipToDefaultChecksTests.testCannotSkipWhenEmpty`.
    @Test("On a player without items, seeks and skips complete with true at once")
    func emptyPlayer() async throws {
        let harness = try await PlayerHarness()
        let player = harness.player!
        var results: [Bool] = []
        player.seek(.at(MediaTime(seconds: 10))) { results.append($0) }
        player.seek(to: Date()) { results.append($0) }
        player.skipForward { results.append($0) }
        player.skipBackward { results.append($0) }
        player.skip(.forward) { results.append($0) }
        player.skipToDefault { results.append($0) }
        #expect(results == [true, true, true, true, true, true])
        #expect(!player.canSkipForward() && !player.canSkipBackward() && !player.canSkipToDefault())
        #expect(!player.canSeek(to: .zero))
        await harness.shutdown()
    }

    @Test("Positions keep their tolerances down to the engine: it lands on the segment boundary they allow")
    func tolerancesReachTheEngine() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("A", log: log)] }  // 4 s segments
        let player = harness.player!
        let cases: [(SeekPosition, Double)] = [
            (.near(MediaTime(seconds: 10.5)), 12), (.before(MediaTime(seconds: 10.5)), 8),
            (.after(MediaTime(seconds: 9)), 12), (.at(MediaTime(seconds: 10.5)), 10.5),
            (.to(MediaTime(seconds: 13), toleranceBefore: MediaTime(seconds: 0.5), toleranceAfter: MediaTime(seconds: 0.5)), 13),
        ]
        for (position, landing) in cases {
            player.seek(position)
            await harness.advance(by: .seconds(1))
            #expect(player.time == MediaTime(seconds: landing), "\(position)")
        }
        #expect(player.canSeek(to: MediaTime(seconds: 40)) && !player.canSeek(to: MediaTime(seconds: 40.5)))
        await harness.shutdown()
    }

    /// Pillarbox: `SkipForwardTests.testSkipNearEndDoesNotSeekAnymore` and `testSkipNearEndCompletion`.
    @Test("A forward skip within 1 s of the end does nothing and completes with true")
    func forwardSkipNearTheEnd() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("A", log: log)] }
        let player = harness.player!
        player.seek(.at(MediaTime(seconds: 39.5)))
        await harness.advance(by: .seconds(1))
        let seeks = { (log.metricEvents["A"] ?? []).filter { if case .seekBegan = $0.kind { true } else { false } }.count }
        let before = seeks()
        var result: Bool?
        #expect(player.canSkip(.forward))
        player.skip(.forward) { result = $0 }
        #expect(result == true)
        await harness.advance(by: .seconds(1))
        #expect(seeks() == before && player.time == MediaTime(seconds: 39.5))
        await harness.shutdown()
    }

    /// Pillarbox: `SkipBackwardChecksTests.testCanSkipForOnDemand` and `SkipToDefaultChecksTests.testCanSkipForOnDemand`.
    @Test("At the start of on-demand content one can skip back and to the default; a backward skip completes with true")
    func onDemandChecks() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("A", log: log)] }
        let player = harness.player!
        #expect(player.canSkipBackward() && player.canSkipToDefault())
        var result: Bool?
        player.skipBackward { result = $0 }
        await harness.advance(by: .seconds(1))
        #expect(result == true && player.time == .zero)
        await harness.shutdown()
    }

    /// Pillarbox: `SkipForwardTests.testSkipForLive`, `SkipToDefaultChecksTests.testCanSkipForLive`.
    @Test("Live: skips complete with true, and skipping to the default is always possible")
    func live() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("L", log: log, path: "live/master.m3u8")] }
        let player = harness.player!
        player.play()
        await harness.advance(by: .seconds(2))
        #expect(player.streamType == .live)
        #expect(player.canSkipToDefault())
        var results: [Bool] = []
        player.skipForward { results.append($0) }
        player.skipToDefault { results.append($0) }
        await harness.advance(by: .seconds(2))
        #expect(results == [true, true])
        await harness.shutdown()
    }

    /// Pillarbox: `SkipToDefaultChecksTests.testCannotSkipForDvrInLiveConditions` and `testCanSkipForDvrInPastConditions`;
    /// `SpeedTests.testDvr` and `testDvrInThePast`.
    @Test("DVR: skipping to the default is possible a target duration behind the edge, not at it; speeds follow")
    func dvr() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness(lab: LabConfiguration(dvrWindowSegments: 30)) { h in
            [h.item("D", log: log, path: "dvr/master.m3u8")]
        }
        let player = harness.player!
        player.play()
        await harness.advance(by: .seconds(2))
        #expect(player.streamType == .dvr)
        #expect(!player.canSkipToDefault() && player.isAtLiveEdge)
        #expect(player.playbackSpeedRange == 0.1...1, "within 5 s of the live edge")
        #expect(!player.canSkipForward(), "10 s ahead is past the live edge")
        player.seek(.at(player.seekableTimeRange.end - MediaTime(seconds: 60)))
        await harness.advance(by: .seconds(1))
        #expect(player.canSkipToDefault() && player.canSkipForward())
        #expect(player.isEnabled(.skipForward) && player.isEnabled(.skipBackward), "one item, not live: skips on")
        #expect(player.playbackSpeedRange == 0.1...2)
        let info = try #require(player.nowPlayingInfo)
        #expect(info.duration == player.seekableTimeRange.duration, "now-playing shows the window")
        #expect(abs(info.elapsedTime.seconds - (player.time - player.seekableTimeRange.start).seconds) < 0.001)
        #expect(!info.isLive)
        var result: Bool?
        player.skipToDefault { result = $0 }
        await harness.advance(by: .seconds(1))
        #expect(result == true && player.isAtLiveEdge)
        await harness.shutdown()
    }
}
