import Foundation
import PlaytraceCore
import PlaytracePlayer
import Testing

@Suite("Now playing and remote commands")
@MainActor
struct NowPlayingTests {
    @Test("One active player at a time receives remote commands")
    func activePlayer() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("A", log: log), h.item("B", log: log)] }
        let player = harness.player!
        let other = Player { fatalError("never used: the player has no item") }
        player.becomeActive()
        #expect(Player.active === player && player.isActive)
        other.becomeActive()
        #expect(Player.active === other && !player.isActive)
        #expect(Player.handleRemoteCommand(.play) == .noActionableNowPlayingItem)
        other.resignActive()
        player.resignActive()
        #expect(Player.active == nil)
        player.becomeActive()
        #expect(Player.handleRemoteCommand(.togglePlayPause) == .success)
        #expect(player.playbackState == .playing)
        player.resignActive()
        await harness.shutdown()
    }

    @Test("Now-playing information and command enablement follow the item and the stream")
    func infoAndEnablement() async throws {
        let log = TrackerLog()
        let chapters = [Chapter(id: "1", title: "Intro", timeRange: range(0, 10))]
        let harness = try await PlayerHarness { h in
            [h.item("A", log: log, chapters: chapters), h.item("Live", log: log, path: "live/master.m3u8")]
        }
        let player = harness.player!
        let info = try #require(player.nowPlayingInfo)
        #expect(info.title == "A" && info.duration == MediaTime(seconds: 40) && !info.isLive && info.rate == 0)
        #expect(info.chapterTitle == "Intro")
        #expect(player.isEnabled(.nextTrack) && player.isEnabled(.previousTrack), "smart previous restarts on demand")
        #expect(!player.isEnabled(.skipForward) && !player.isEnabled(.skipBackward),
                "Pillarbox: skips are off in a playlist of more than one item (track changes take their place)")
        #expect(player.handle(.skipBackward) == .disabled)
        #expect(player.handle(.changePlaybackPosition(MediaTime(seconds: 12))) == .success)
        await harness.advance(by: .seconds(1))
        #expect(player.nowPlayingInfo?.elapsedTime == MediaTime(seconds: 12))
        #expect(player.isEnabled(.previousTrack), "smart previous restarts the item")
        player.play()
        await harness.advance(by: .seconds(1))
        #expect(player.nowPlayingInfo?.rate == 1)
        #expect(player.handle(.nextTrack) == .success)
        await harness.advance(by: .seconds(3))
        #expect(player.nowPlayingInfo?.isLive == true && player.nowPlayingInfo?.duration == nil)
        #expect(!player.isEnabled(.skipForward) && !player.isEnabled(.changePlaybackPosition))
        player.removeAllItems()
        #expect(player.nowPlayingInfo == nil)
        #expect(player.handle(.play) == .noActionableNowPlayingItem)
        await harness.shutdown()
    }
}
