import Foundation
import PlaytraceCore
import PlaytracePlayer
import Testing

@Suite("Player: playlist, playback and trackers")
@MainActor
struct PlayerPlaylistTests {
    @Test("A two-item playlist plays through; the trackers see exactly their item's life cycle")
    func twoItemsPlayThrough() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("A", log: log), h.item("B", log: log)] }
        let player = harness.player!
        #expect(player.playbackState == .paused)
        #expect(player.currentItem === player.items[0])
        #expect(log.lines == ["A init", "A metadata A", "B init", "B metadata B", "A enable"],
                "metadata known at once arrives with each item; A is current and enabled, B is not")
        player.play()
        await harness.advance(until: { player.currentItem === player.items[1] }, limit: .seconds(60))
        #expect(log.lines.suffix(2) == ["A disable at 40", "B enable"])
        #expect(player.playbackState == .playing)
        await harness.advance(until: { player.playbackState == .ended }, limit: .seconds(60))
        #expect(player.currentItem == nil, "the end of the playlist: no current item (Pillarbox)")
        #expect(log.lines == ["A init", "A metadata A", "B init", "B metadata B", "A enable",
                              "A disable at 40", "B enable", "B disable at 40"], "B's trackers hear that it ended")
        let events = try #require(log.metricEvents["B"])
        #expect(events.contains { $0.kind == .itemTransition })
        #expect(events.contains { if case .firstFrame = $0.kind { true } else { false } })
        #expect(events.contains { if case .metadata = $0.kind { true } else { false } })
        #expect(events.contains { if case .asset = $0.kind { true } else { false } })
        await harness.shutdown()
        #expect(Array(log.lines.dropFirst(8)) == ["A deinit", "B deinit"], "removing the items releases them")
    }
}
