import Foundation
import PlaytraceCore
import PlaytracePlayer
import Testing

/// What a stream delivered, collected on the main actor.
@MainActor
final class Collected<Element: Sendable> {
    var values: [Element] = []
    private var task: Task<Void, Never>?

    init(_ stream: AsyncStream<Element>) {
        task = Task { @MainActor [weak self] in
            for await value in stream { self?.values.append(value) }
        }
    }

    func stop() { task?.cancel() }
}

@Suite("Player: time and quality of service for apps")
@MainActor
struct PlayerTimeAndMetricsTests {
    @Test("Periodic time: the time now, then every interval while it moves; nothing while paused")
    func periodicTime() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("A", log: log)] }
        let player = harness.player!
        let times = Collected(player.periodicTimeUpdates(every: .seconds(1)))
        await harness.advance(by: .milliseconds(500))
        #expect(times.values == [.zero])
        player.play()
        await harness.advance(by: .seconds(5))
        let playing = times.values.count
        #expect(playing >= 5 && playing <= 7, "\(times.values)")
        #expect(zip(times.values, times.values.dropFirst()).allSatisfy { $0 < $1 })
        player.pause()
        await harness.advance(by: .seconds(1))
        let paused = times.values.count
        await harness.advance(by: .seconds(4))
        #expect(times.values.count == paused, "a paused player sends nothing")
        times.stop()
        await harness.shutdown()
    }

    @Test("Boundary time: crossings in continuous playback, not seeks")
    func boundaryTime() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("A", log: log)] }
        let player = harness.player!
        let boundaries = [3, 5, 20].map { MediaTime(seconds: Double($0)) }
        let crossed = Collected(player.boundaryTimeUpdates(at: boundaries))
        player.play()
        await harness.advance(until: { player.time > MediaTime(seconds: 6) }, limit: .seconds(20))
        #expect(crossed.values == [boundaries[0], boundaries[1]])
        player.seek(.at(MediaTime(seconds: 25)))
        await harness.advance(by: .seconds(2))
        #expect(crossed.values.count == 2, "a seek past a boundary crosses nothing")
        player.seek(.at(MediaTime(seconds: 18)))
        await harness.advance(by: .milliseconds(500))
        #expect(player.time < MediaTime(seconds: 19))
        await harness.advance(until: { player.time > MediaTime(seconds: 21) }, limit: .seconds(20))
        #expect(crossed.values == boundaries)
        crossed.stop()
        await harness.shutdown()
    }

    @Test("Metric events reach apps as they accumulate; a new item starts a new list")
    func metricEventStream() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("A", log: log), h.item("B", log: log)] }
        let player = harness.player!
        let lists = Collected(player.metricEventUpdates())
        player.play()
        await harness.advance(by: .seconds(2))
        player.seek(.at(MediaTime(seconds: 20)))
        await harness.advance(by: .seconds(1))
        let seeks = { (events: [MetricEvent]) in events.filter { if case .seekBegan = $0.kind { true } else { false } }.count }
        #expect(seeks(try #require(lists.values.last)) == 1)
        #expect(lists.values.last == player.metricEvents)
        #expect(player.metricEvents == log.metricEvents["A"], "apps see what trackers see")
        player.advanceToNextItem()
        await harness.advance(by: .seconds(2))
        #expect(seeks(try #require(lists.values.last)) == 0)
        #expect(lists.values.last?.contains { $0.kind == .itemTransition } == true)
        // Never the same list twice in a row (Pillarbox removes consecutive duplicates).
        #expect(zip(lists.values, lists.values.dropFirst()).allSatisfy { $0 != $1 }, "\(lists.values.map(\.count))")
        lists.stop()
        await harness.shutdown()
    }

    @Test("Periodic metrics begin with an empty history; an empty player publishes that one only (Pillarbox)")
    func periodicMetricsOfAnEmptyPlayer() async throws {
        let harness = try await PlayerHarness { _ in [] }
        let updates = Collected(harness.player.periodicMetricUpdates(every: .seconds(1), limit: 3))
        await harness.advance(by: .seconds(3))
        #expect(updates.values == [[]], "\(updates.values)")
        updates.stop()
        await harness.shutdown()
    }

    @Test("Metrics: a history sample per refresh, and periodic samples with totals and increments")
    func metrics() async throws {
        let log = TrackerLog()
        let harness = try await PlayerHarness { h in [h.item("A", log: log)] }
        let player = harness.player!
        let updates = Collected(player.periodicMetricUpdates(every: .seconds(1), limit: 3))
        player.play()
        await harness.advance(by: .seconds(6))
        let history = player.metrics()
        #expect(history.count >= 5 && history.count <= 7, "one per 1 s refresh: \(history.count)")
        #expect(history.last?.total.bytesReceived ?? 0 > 0)
        let summed = history.reduce(0) { $0 + $1.increment.bytesReceived }
        #expect(summed == history.last?.total.bytesReceived, "the increments add up to the total")
        #expect(updates.values.first == [], "an empty history first")
        let last = try #require(updates.values.last)
        #expect(last.count == 3, "the last three samples")
        #expect(last[2].increment.bytesReceived == last[2].total.bytesReceived - last[1].total.bytesReceived)
        #expect(last[2].total.playbackDuration > last[1].total.playbackDuration)
        #expect(last[2].time - last[1].time == .seconds(1))
        updates.stop()
        await harness.shutdown()
    }

    @Test("The metrics history keeps its limit's latest samples, their increments still against the sample before")
    func metricsHistoryLimit() async throws {
        let log = TrackerLog()
        var configuration = Player.Configuration()
        configuration.metricsHistoryLimit = 2
        let harness = try await PlayerHarness(player: configuration) { h in [h.item("A", log: log)] }
        let player = harness.player!
        player.play()
        await harness.advance(by: .seconds(6))
        let history = player.metrics()
        #expect(history.count == 2)
        let latest = try #require(history.last)
        #expect(latest.total.bytesReceived > 0 && latest.time - history[0].time == .seconds(1))
        #expect(latest.increment.bytesReceived == latest.total.bytesReceived - history[0].total.bytesReceived)
        await harness.shutdown()
    }
}
