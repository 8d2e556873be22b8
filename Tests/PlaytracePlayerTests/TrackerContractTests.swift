import Foundation
import Glibc
import PlaytraceCore
@_spi(Benchmarking) import PlaytracePlayer
import Testing

/// A tracker that keeps the properties it was enabled with.
final class KeepingTracker: PlayerItemTracker {
    @MainActor final class Box { var enabled: TrackerProperties?; var last: TrackerProperties? }
    private let box: Box
    init(configuration: Box) { box = configuration }
    func enable(for player: Player) { box.enabled = player.properties }
    func updateMetadata(to metadata: Void) {}
    func updateProperties(to properties: TrackerProperties) { box.last = properties }
    func disable(with properties: TrackerProperties) {}
}

/// What an asynchronous tracker saw, in order.
final class AsyncLog: Sendable {
    let lines = Locked<[String]>([])
    func add(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

/// A tracker that takes 50 ms over every call, blocking its thread, as a slow upload or a disk write would.
actor SlowTracker: AsyncPlayerItemTracker {
    struct Configuration: Sendable {
        let name: String
        let log: AsyncLog
        /// Whether each call blocks its thread for 50 ms (one such tracker at a time: two would hold both of this
        /// machine's cooperative threads, and every other test's tasks with them).
        var blocks = true
    }

    private let configuration: Configuration
    private var sessions = 0

    init(configuration: Configuration) { self.configuration = configuration }

    private func work(_ line: String) {
        if configuration.blocks { usleep(50_000) }
        configuration.log.add(line)
    }

    func enable(with properties: TrackerProperties) {
        sessions += 1
        work("enable")
    }
    func updateMetadata(to metadata: String) { work("metadata \(metadata)") }
    func updateProperties(to properties: TrackerProperties) { work("properties") }
    func disable(with properties: TrackerProperties) { work("disable") }
    var sessionIdentifier: String? { sessions > 0 ? "\(configuration.name)-\(sessions)" : nil }
}

@Suite("Tracker contract")
@MainActor
struct TrackerContractTests {
    @Test("current() reads the player now; properties carry the seek target, isBusy and the current renditions")
    func propertiesReadings() async throws {
        let box = KeepingTracker.Box()
        let harness = try await PlayerHarness { h in
            [PlayerItem.simple(url: h.url("vod/master.m3u8"), trackerAdapters: [KeepingTracker.adapter(configuration: box)])]
        }
        let player = harness.player!
        player.play()
        await harness.advance(by: .seconds(5))
        let enabled = try #require(box.enabled)
        #expect(enabled.time == .zero)
        #expect(enabled.current().time > MediaTime(seconds: 4), "a fresh reading: \(enabled.current().time)")
        player.seek(.at(MediaTime(seconds: 30)))
        let seeking = player.properties
        #expect(seeking.seekTime == MediaTime(seconds: 30) && seeking.isBusy)
        await harness.advance(by: .seconds(1))
        #expect(player.properties.seekTime == nil)
        #expect(player.properties.currentMediaOption(for: .audible).option?.language == "en")
        #expect(player.properties.currentMediaOption(for: .legible) == .off)
        await harness.shutdown()
    }

    @Test("A tracker that takes 50 ms over every call holds up nothing: it gets its life cycle in order, behind")
    func slowAsyncTracker() async throws {
        let log = AsyncLog()
        let harness = try await PlayerHarness { h in
            [PlayerItem.simple(url: h.url("vod/master.m3u8"), metadata: TestMetadata(title: "A"), trackerAdapters: [
                SlowTracker.adapter(configuration: .init(name: "slow", log: log)) { $0.title },
            ])]
        }
        let player = harness.player!
        player.play()
        await harness.advance(by: .seconds(3))
        let clock = ContinuousClock()
        let properties = { log.all.filter { $0 == "properties" }.count }
        let delivered = properties()
        let started = clock.now
        for _ in 0..<20 { player.notifyPropertiesNow() }
        let elapsed = started.duration(to: clock.now)
        #expect(elapsed < .milliseconds(20), "20 updates cost the main actor \(elapsed) (the tracker needs 1 s)")
        player.removeAllItems()
        let deadline = clock.now + .seconds(10)
        while log.all.last != "disable", clock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let lines = log.all
        #expect(lines.first == "metadata A" && lines.dropFirst().first == "enable")
        #expect(lines.last == "disable")
        #expect(properties() <= delivered + 3, "the 20 updates that piled up were coalesced: \(properties() - delivered)")
        await harness.shutdown()
    }

    @Test("Session identifiers of asynchronous trackers are listed once known")
    func asyncSessionIdentifiers() async throws {
        let log = AsyncLog()
        let harness = try await PlayerHarness { h in
            [PlayerItem.simple(url: h.url("vod/master.m3u8"), metadata: TestMetadata(title: "A"), trackerAdapters: [
                SlowTracker.adapter(configuration: .init(name: "b", log: log, blocks: false)) { $0.title },
                SlowTracker.adapter(configuration: .init(name: "a", log: log, blocks: false)) { $0.title },
            ])]
        }
        let player = harness.player!
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(10)
        while player.currentSessionIdentifiers(trackedBy: SlowTracker.self).count < 2, clock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(player.currentSessionIdentifiers(trackedBy: SlowTracker.self) == ["a-1", "b-1"])
        await harness.shutdown()
    }
}
