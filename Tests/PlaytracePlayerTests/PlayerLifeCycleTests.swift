import Foundation
import PlaytraceCore
import PlaytraceLab
import PlaytracePlayer
import Testing

@Suite("Player: repeat, replay, failures and tracking")
@MainActor
struct PlayerLifeCycleTests {
    @Test("Repeat one plays the item again as a new tracked session; repeat all loops the list")
    func repeatModes() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("A", log: log), h.item("B", log: log)] }
        let player = harness.player!
        player.repeatMode = .one
        player.play()
        await harness.advance(until: { log.lines.contains("A disable at 40") }, limit: .seconds(60))
        #expect(player.currentItem === player.items[0])
        #expect(log.lines.suffix(2) == ["A disable at 40", "A enable"])
        player.repeatMode = .all
        player.currentItem = player.items[1]
        await harness.advance(until: { player.currentItem === player.items[0] }, limit: .seconds(60))
        #expect(log.lines.suffix(4) == ["A disable at 0", "B enable", "B disable at 40", "A enable"])
        #expect(player.playbackState == .playing)
        await harness.shutdown()
    }

    @Test("With the pause action at item end, the player stays at the end of the item")
    func pauseAtItemEnd() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("A", log: log), h.item("B", log: log)] }
        let player = harness.player!
        player.actionAtItemEnd = .pause
        player.play()
        await harness.advance(until: { player.playbackState == .ended }, limit: .seconds(60))
        await harness.advance(by: .seconds(2))
        #expect(player.currentItem === player.items[0])
        #expect(player.playbackState == .ended)
        #expect(!log.lines.contains("B enable"))
        player.advanceToNextItem()
        await harness.advance(by: .seconds(1))
        #expect(player.currentItem === player.items[1])
        await harness.shutdown()
    }

    @Test("The next item is preloaded: its engine has loaded and buffered before it becomes current")
    func preloading() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("A", log: log), h.item("B", log: log)] }
        #expect(harness.engines.count == 2)
        let next = try #require(harness.engines.last)
        let snapshot = await next.snapshot()
        #expect(snapshot.status == .paused && snapshot.streamType == .onDemand)
        #expect(snapshot.bufferedAhead > MediaTime(seconds: 20))
        let player = harness.player!
        player.play()
        await harness.advance(until: { player.currentItem === player.items[1] }, limit: .seconds(60))
        await harness.advance(by: .seconds(1))
        #expect(harness.engines.count == 2, "the preloaded engine became the current one")
        let startup = (log.metricEvents["B"] ?? []).compactMap { event -> Duration? in
            if case .firstFrame(let startup) = event.kind { startup } else { nil }
        }
        #expect(startup.first.map { $0 <= .milliseconds(100) } == true, "B started at once: \(startup)")
        await harness.shutdown()
    }

    @Test("Replay after the end starts a new session from the start")
    func replayAfterEnd() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("A", log: log)] }
        let player = harness.player!
        #expect(!player.canReplay())
        player.play()
        await harness.advance(until: { player.playbackState == .ended }, limit: .seconds(60))
        #expect(player.canReplay())
        // The end of the playlist, as Pillarbox: no current item, empty metadata, the trackers disabled at once.
        #expect(player.currentItem == nil && player.metadata == .empty)
        #expect(log.lines == ["A init", "A metadata A", "A enable", "A disable at 40"])
        #expect(player.engines.isEmpty, "nothing stays loaded")
        player.replay()
        await harness.advance(by: .seconds(5))
        #expect(player.playbackState == .playing)
        #expect(player.time > MediaTime(seconds: 2) && player.time < MediaTime(seconds: 6))
        #expect(log.lines == ["A init", "A metadata A", "A enable", "A disable at 40", "A enable"])
        await harness.shutdown()
    }

    @Test("With advancesAfterFailure, a failed item: the player moves on, the failed item's trackers still get their disable")
    func failedItemMovesOn() async throws {
        let log = TrackerLog()
        struct Refused: Error {}
        var configuration = Player.Configuration()
        configuration.advancesAfterFailure = true
        let harness = try await PlayerHarness(player: configuration) { h in
            [h.item("Broken", log: log, path: "missing/master.m3u8"),
             PlayerItem.unavailable(Refused(), metadata: TestMetadata(title: "Blocked"), trackerAdapters: [
                 RecordingTracker.adapter(configuration: .init(name: "Blocked", log: log)) { $0.title },
             ]),
             h.item("A", log: log)]
        }
        let player = harness.player!
        player.play()
        await harness.advance(until: { player.currentItem === player.items[2] && player.playbackState == .playing },
                              limit: .seconds(30))
        #expect(player.items[0].error is EngineError)
        #expect(player.items[1].error is Refused)
        #expect(player.items[1].loadState == .failed)
        #expect(player.error == nil, "the current item has not failed")
        let broken = try #require(log.metricEvents["Broken"])
        #expect(broken.contains { if case .failure(let error) = $0.kind { error.httpStatus == 404 } else { false } })
        #expect(broken.filter { if case .warning = $0.kind { true } else { false } }.isEmpty, "a 404 is not retried")
        #expect(log.lines.contains("Broken disable at 0"))
        #expect(log.lines.contains("Blocked disable at 0"))
        #expect(log.lines == ["Broken init", "Broken metadata Broken", "Blocked init", "Blocked metadata Blocked",
                              "A init", "A metadata A", "Broken enable", "Broken disable at 0", "Blocked enable",
                              "Blocked disable at 0", "A enable"])
        await harness.shutdown()
    }

    /// Pillarbox: `QueueTests.testFailingUnavailableItem` (the player stays on the failed item).
    @Test("By default the player stays on a failed item, its error shown, and goes no further")
    func failedItemStays() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in
            [h.item("Broken", log: log, path: "missing/master.m3u8"), h.item("A", log: log)]
        }
        let player = harness.player!
        player.play()
        await harness.advance(until: { player.error != nil }, limit: .seconds(10))
        await harness.advance(by: .seconds(5))
        #expect(player.currentItem === player.items[0])
        #expect(player.error is EngineError)
        #expect(!log.lines.contains("A enable"))
        #expect(!player.isEnabled(.skipForward) && !player.isEnabled(.changePlaybackPosition),
                "position and skips are off after a fatal error")
        #expect(player.isEnabled(.nextTrack))
        player.advanceToNextItem()
        await harness.advance(by: .seconds(1))
        #expect(player.error == nil && player.currentItem === player.items[1])
        await harness.shutdown()
    }

    /// Pillarbox: `ErrorTests.testReset`.
    @Test("removeAllItems() clears the error of a failed item")
    func removeAllItemsClearsError() async throws {
        struct Refused: Error {}
        let harness = try await PlayerHarness { _ in [PlayerItem.unavailable(Refused(), metadata: TestMetadata(title: "Blocked"))] }
        let player = harness.player!
        player.play()
        await harness.advance(until: { player.error != nil }, limit: .seconds(10))
        #expect(player.error is Refused)
        player.removeAllItems()
        #expect(player.error == nil && player.currentItem == nil)
        await harness.shutdown()
    }

    @Test("A failure on the last item stays visible; replay loads the item again")
    func replayAfterFailure() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness(lab: LabConfiguration(vodSegmentCount: 16)) { h in [h.item("A", log: log)] }
        let player = harness.player!
        // Three segments in a row that no variant delivers, past what is buffered at once: nothing playable remains
        // (one alone would be played past as a gap).
        for segment in ["seg10.ts", "seg11.ts", "seg12.ts"] {
            harness.lab.faults.add(LabFault(pathContains: segment, kind: .status(503)))
        }
        player.play()
        await harness.advance(until: { player.error != nil }, limit: .seconds(90))
        #expect(player.playbackState == .idle)
        #expect(player.canReplay())
        harness.lab.faults.clear()
        player.replay()
        await harness.advance(by: .seconds(3))
        #expect(player.error == nil)
        #expect(player.playbackState == .playing)
        #expect(log.lines.suffix(2).first?.hasPrefix("A disable at") == true)
        #expect(log.lines.last == "A enable")
        await harness.shutdown()
    }

    @Test("Tracking switched off and on mid-item: optional trackers follow, mandatory ones keep running")
    func trackingToggle() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in
            [PlayerItem.simple(url: h.url("vod/master.m3u8"), metadata: TestMetadata(title: "A"), trackerAdapters: [
                RecordingTracker.adapter(configuration: .init(name: "analytics", log: log)) { $0.title },
                RecordingTracker.adapter(configuration: .init(name: "qos", log: log), behavior: .mandatory) { $0.title },
            ])]
        }
        let player = harness.player!
        player.play()
        await harness.advance(by: .seconds(5))
        player.isTrackingEnabled = false
        await harness.advance(by: .seconds(5))
        let analyticsUpdates = log.propertyUpdates["analytics"] ?? 0
        await harness.advance(by: .seconds(5))
        #expect(log.propertyUpdates["analytics"] == analyticsUpdates, "a disabled tracker gets no properties")
        #expect(player.currentSessionIdentifiers(trackedBy: RecordingTracker.self) == ["analytics-1", "qos-1"],
                "Pillarbox: every adapter of the type, enabled or not, sorted")
        player.isTrackingEnabled = true
        #expect(player.currentSessionIdentifiers(trackedBy: RecordingTracker.self) == ["analytics-2", "qos-1"])
        #expect(log.lines == ["analytics init", "qos init", "analytics metadata A", "qos metadata A",
                              "analytics enable", "qos enable", "analytics disable at 5", "analytics enable"],
                "metadata known at once reaches the trackers before enable (Pillarbox's order)")
        await harness.shutdown()
    }

    @Test("Only the current item's trackers receive properties and metric events")
    func onlyCurrentItemTracked() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("A", log: log), h.item("B", log: log)] }
        let player = harness.player!
        player.play()
        await harness.advance(by: .seconds(10))
        #expect((log.propertyUpdates["A"] ?? 0) > 0)
        #expect(log.propertyUpdates["B"] == nil, "the preloaded item is not tracked")
        #expect(log.metricEvents["B"] == nil)
        await harness.shutdown()
    }
}
