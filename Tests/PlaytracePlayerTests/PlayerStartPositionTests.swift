import Foundation
import PlaytraceCore
import PlaytracePlayer
import Testing

/// Where playback starts: an item's `PlaybackConfiguration` and the Player's `resume(_:in:)` (Pillarbox:
/// `PlaybackConfiguration(position:)`, `Player.resume(_:in:)`), on the lab's 40-second on-demand stream.
@Suite("Player: where playback starts")
@MainActor
struct PlayerStartPositionTests {
    private static func metadata(_ title: String, blocked: [MediaTimeRange] = []) -> TestMetadata {
        TestMetadata(title: title, timeRanges: blocked.map { TimeRange(kind: .blocked, range: $0) }, chapters: [])
    }

    /// The first position the item's playback showed (its first played range's start).
    private static func firstPlayed(_ harness: PlayerHarness) async -> MediaTime? {
        await harness.engines.last?.snapshot().playedRanges.ranges.first?.start
    }

    @Test("An item made with a start position starts there; one inside a blocked range starts at its end")
    func configurationPosition() async throws {
        let harness = try await PlayerHarness { h in
            [PlayerItem.simple(url: h.url("vod/master.m3u8"), metadata: Self.metadata("A"),
                               configuration: PlaybackConfiguration(position: .at(MediaTime(seconds: 20))))]
        }
        let player = harness.player!
        player.play()
        await harness.advance(until: { player.time > MediaTime(seconds: 21) }, limit: .seconds(30))
        #expect(await Self.firstPlayed(harness) == MediaTime(seconds: 20))
        player.items = [PlayerItem.simple(url: harness.url("vod/master.m3u8"),
                                          metadata: Self.metadata("B", blocked: [range(15, 24)]),
                                          configuration: PlaybackConfiguration(position: .at(MediaTime(seconds: 18))))]
        await harness.advance(until: { player.time > MediaTime(seconds: 25) }, limit: .seconds(30))
        #expect(await Self.firstPlayed(harness) == MediaTime(seconds: 24), "the start moved past the blocked range")
        await harness.shutdown()
    }

    @Test("resume(_:in:) makes the item current at once, there, once (Pillarbox's ResumeTests); on the playing item it seeks now")
    func resumeOnce() async throws {
        let harness = try await PlayerHarness { h in
            [PlayerItem.simple(url: h.url("vod/master.m3u8"), metadata: Self.metadata("A")),
             PlayerItem.simple(url: h.url("vod/master.m3u8"), metadata: Self.metadata("B"),
                               configuration: PlaybackConfiguration(position: .at(MediaTime(seconds: 8))))]
        }
        let player = harness.player!
        let second = player.items[1]
        player.play()
        await harness.advance(by: .seconds(2))
        // The second item is preloaded by now: resuming it loads it again from the new position.
        player.resume(.at(MediaTime(seconds: 30)), in: second)
        #expect(player.currentItem === second, "current at once")
        await harness.advance(until: { player.time > MediaTime(seconds: 31) }, limit: .seconds(30))
        #expect(player.currentItem === second)
        #expect(await Self.firstPlayed(harness) == MediaTime(seconds: 30), "the resume position wins over the item's")

        player.currentItem = player.items[0]
        await harness.advance(by: .seconds(2))
        player.advanceToNextItem()
        await harness.advance(until: { player.time > MediaTime(seconds: 9) }, limit: .seconds(30))
        #expect(await Self.firstPlayed(harness) == MediaTime(seconds: 8), "once: the item's own position again")

        player.resume(.at(MediaTime(seconds: 25)), in: second)
        await harness.advance(until: { player.time > MediaTime(seconds: 26) }, limit: .seconds(30))
        #expect(player.time > MediaTime(seconds: 25) && player.time < MediaTime(seconds: 28), "sought at once: \(player.time)")
        // An item not in the list is ignored.
        player.resume(.at(MediaTime(seconds: 5)), in: PlayerItem.simple(url: harness.url("vod/master.m3u8")))
        #expect(player.currentItem === second && player.items.count == 2)
        await harness.shutdown()
    }

    /// Pillarbox: `testSetCurrentItemWithUnknownItem` (and the rules beside it in REFERENCE.md §1).
    @Test("Setting currentItem: an unknown item replaces the current one, the current one skips to its default, nil stops")
    func currentItemSetter() async throws {
        let harness = try await PlayerHarness { h in
            [PlayerItem.simple(url: h.url("vod/master.m3u8"), metadata: Self.metadata("1")),
             PlayerItem.simple(url: h.url("vod/master.m3u8"), metadata: Self.metadata("2"))]
        }
        let player = harness.player!
        let (first, second) = (player.items[0], player.items[1])
        player.play()
        await harness.advance(until: { player.time > MediaTime(seconds: 5) }, limit: .seconds(20))
        player.currentItem = first
        await harness.advance(by: .seconds(1))
        #expect(player.currentItem === first && player.time < MediaTime(seconds: 3), "back to the start: \(player.time)")

        let third = PlayerItem.simple(url: harness.url("vod/master.m3u8"), metadata: Self.metadata("3"))
        player.currentItem = third
        #expect(player.items.map(\.id) == [third.id, second.id] && player.currentItem === third)

        player.currentItem = nil
        await harness.settle()
        #expect(player.currentItem == nil && player.items.count == 2)
        #expect(player.engines.isEmpty, "nothing loaded, not even the first item ahead of its turn (Pillarbox)")
        await harness.shutdown()
    }
}
