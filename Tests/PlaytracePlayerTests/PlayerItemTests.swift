import Foundation
import Observation
import PlaytraceCore
import PlaytracePlayer
import Testing

/// A loader whose metadata the test updates while the item plays.
struct UpdatingLoader: AssetLoader {
    let url: URL
    let first: TestMetadata
    let updates: AsyncStream<TestMetadata>

    func asset() async throws -> Asset<TestMetadata> { .simple(url: url, metadata: first) }
    func metadataUpdates() -> AsyncStream<TestMetadata> { updates }
}

@Suite("Player: items, metadata, speed and playlist edits")
@MainActor
struct PlayerItemTests {
    @Test("Metadata that updates while the item plays reaches the player, the trackers and the blocked ranges")
    func metadataUpdates() async throws {
        let log = TrackerLog()
        let (updates, continuation) = AsyncStream<TestMetadata>.makeStream()
        let harness = try await PlayerHarness { h in
            [PlayerItem(loader: UpdatingLoader(url: h.url("vod/master.m3u8"), first: TestMetadata(title: "Show 1"),
                                               updates: updates),
                        trackerAdapters: [RecordingTracker.adapter(configuration: .init(name: "A", log: log)) { $0.title }])]
        }
        let player = harness.player!
        #expect(player.metadata.title == "Show 1")
        player.play()
        await harness.advance(by: .seconds(5))
        continuation.yield(TestMetadata(title: "Show 2", timeRanges: [TimeRange(kind: .blocked, range: range(10, 20))]))
        await harness.advance(by: .seconds(10))
        #expect(player.metadata.title == "Show 2")
        #expect(player.time > MediaTime(seconds: 20), "the new blocked range was skipped")
        let played = try #require(await harness.engines.first?.snapshot().playedRanges)
        #expect(played.overlap(with: range(10, 20)) == .zero)
        #expect(log.lines == ["A init", "A enable", "A metadata Show 1", "A metadata Show 2"])
        continuation.finish()
        await harness.shutdown()
    }

    @Test("An asynchronous loader: metadata timing is measured on the player's clock")
    func loaderTiming() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in
            let clock = h.clock
            let url = h.url("vod/master.m3u8")
            return [PlayerItem(trackerAdapters: [RecordingTracker.adapter(configuration: .init(name: "A", log: log)) { (m: TestMetadata) in m.title }]) {
                try await clock.sleep(for: .milliseconds(700))
                return .simple(url: url, metadata: TestMetadata(title: "Slow"))
            }]
        }
        let player = harness.player!
        #expect(player.isBuffering, "waiting for the asset")
        #expect(player.currentItem?.loadState == .loading)
        await harness.advance(by: .seconds(1))
        #expect(player.currentItem?.loadState == .loaded)
        let events = log.metricEvents["A"] ?? []
        let timing = events.compactMap { event -> (Duration, Duration)? in
            if case .metadata(let experience, let service) = event.kind { (experience, service) } else { nil }
        }
        #expect(timing.count == 1)
        #expect(timing.first?.0 == .milliseconds(700) && timing.first?.1 == .milliseconds(700))
        #expect(events.contains { if case .asset = $0.kind { true } else { false } })
        await harness.shutdown()
    }

    @Test("Playback speed follows the stream's limits")
    func playbackSpeed() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("VOD", log: log), h.item("Live", log: log, path: "live/master.m3u8")] }
        let player = harness.player!
        player.playbackSpeed = 3
        #expect(player.playbackSpeed == 2)
        #expect(player.playbackSpeedRange == 0.1...2)
        player.play()
        await harness.advance(by: .seconds(2))
        #expect(await harness.engines[0].snapshot().rate == 2)
        #expect((log.metricEvents["VOD"] ?? []).contains { $0.kind == .rateChanged(2) })
        #expect(player.buffer > 0.5 && player.loadedTimeRange.end > player.time)
        player.advanceToNextItem()
        await harness.advance(by: .seconds(3))
        #expect(player.streamType == .live)
        #expect(player.playbackSpeedRange == 1...1)
        #expect(player.playbackSpeed == 1)
        await harness.shutdown()
    }

    /// Pillarbox: `SpeedTests.testEmpty` and `SpeedTests.testItemAppendMustStartAtCurrentSpeed`.
    @Test("An empty player allows 1 alone and remembers the speed asked for, which the next item gets")
    func playbackSpeedOnEmptyPlayer() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness()
        let player = harness.player!
        player.playbackSpeed = 1.5
        #expect(player.playbackSpeedRange == 1...1 && player.playbackSpeed == 1)
        player.append(harness.item("A", log: log))
        await harness.advance(by: .seconds(1))
        #expect(player.playbackSpeedRange == 0.1...2)
        #expect(player.playbackSpeed == 1.5)
        #expect(await harness.engines[0].snapshot().rate == 1.5)
        await harness.shutdown()
    }

    @Test("Playlist edits through the player: duplicates refused, removing the current item moves on")
    func playlistEdits() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("A", log: log), h.item("B", log: log)] }
        let player = harness.player!
        let (a, b) = (player.items[0], player.items[1])
        let c = harness.item("C", log: log)
        #expect(!player.append(a), "an item already queued is refused")
        #expect(player.insert(c, before: b))
        #expect(player.items.map { $0 === c } == [false, true, false])
        #expect(player.nextItems.count == 2 && player.previousItems.isEmpty)
        #expect(player.move(b, before: c))
        #expect(player.items[1] === b)
        player.remove(a)
        await harness.settle()
        #expect(player.currentItem === b)
        #expect(log.lines.contains("A disable at 0") && log.lines.contains("B enable"))
        player.currentItem = c
        #expect(player.currentItem === c)
        player.removeAllItems()
        await harness.settle()
        #expect(player.currentItem == nil)
        #expect(player.playbackState == .idle)
        await harness.shutdown()
    }

    @Test("Volume and mute reach the engine; properties carry them")
    func volume() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("A", log: log)] }
        let player = harness.player!
        player.volume = 1.7
        #expect(player.volume == 1)
        player.volume = 0.4
        player.isMuted = true
        await harness.settle()
        let snapshot = try #require(await harness.engines.first?.snapshot())
        #expect(snapshot.volume == 0.4 && snapshot.isMuted)
        #expect(player.properties.isMuted && player.properties.volume == 0.4)
        await harness.shutdown()
    }
}

@Suite("Player: observation")
@MainActor
struct PlayerObservationTests {
    @Test("State changes are observable; the passing of time is not")
    func observation() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("A", log: log)] }
        let player = harness.player!
        let stateChanged = Locked(false)
        withObservationTracking { _ = player.playbackState } onChange: { stateChanged.withLock { $0 = true } }
        player.play()
        #expect(stateChanged.withLock { $0 })
        await harness.advance(by: .seconds(2))
        let timeChanged = Locked(false)
        withObservationTracking { _ = player.time } onChange: { timeChanged.withLock { $0 = true } }
        await harness.advance(by: .milliseconds(2500))
        #expect(player.time > MediaTime(seconds: 3))
        #expect(!timeChanged.withLock { $0 }, "time is read, not published (even across state refreshes)")
        #expect(player.properties.mediaType == .video)
        #expect(player.properties.presentationSize != nil)
        await harness.shutdown()
    }
}
