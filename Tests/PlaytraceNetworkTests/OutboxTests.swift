import Clocks
import Foundation
import GRDB
import PlaytraceCore
import PlaytraceNetwork
import Testing

/// A courier that answers from a script, per attempt, and records what it was given.
final class ScriptedCourier: OutboxCourier, Sendable {
    let name: String
    private let state: Locked<(script: [DeliveryOutcome], attempts: [(key: String, time: Double)])>
    private let wallClock: WallClock

    init(name: String = "test", script: [DeliveryOutcome], wallClock: WallClock) {
        self.name = name
        state = Locked((script, []))
        self.wallClock = wallClock
    }

    func deliver(_ message: OutboxMessage) async -> DeliveryOutcome {
        let now = wallClock.now.secondsSince1970
        return state.withLock { state in
            state.attempts.append((message.key, now))
            return state.script.isEmpty ? .delivered : state.script.removeFirst()
        }
    }

    var attempts: [(key: String, time: Double)] { state.withLock { $0.attempts } }
}

/// Lets an outbox's tasks run after the test clock moved (they wake on the clock, then need the executor).
func settleOutboxTasks() async {
    for _ in 0..<5 {
        for _ in 0..<10 { await Task.yield() }
        try? await Task.sleep(for: .milliseconds(1))
    }
}

@Suite("Outbox")
struct OutboxTests {
    static let origin = StreamDate(secondsSince1970: 1_800_000_000)

    private func message(_ key: String, bytes: Int = 10) -> OutboxMessage {
        OutboxMessage(key: key, destination: "test", payload: Array(repeating: 65, count: bytes))
    }


    /// Delivers one message through a courier that answers as `script` says (then delivers), with a 2 s initial
    /// backoff and no jitter, on a test clock; returns the attempts' times (seconds) and the outbox, still running.
    private func attemptTimes(_ script: [DeliveryOutcome], seconds: Int) async throws -> (times: [Double], outbox: Outbox) {
        let clock = TestClock<Duration>()
        let courier = ScriptedCourier(script: script, wallClock: WallClock(clock: clock, origin: Self.origin))
        var configuration = OutboxConfiguration()
        configuration.initialBackoff = .seconds(2)
        // The default poll interval (60 s): the retries wake the outbox at their own time.
        let outbox = try Outbox(path: nil, couriers: [courier], configuration: configuration, clock: clock,
                                origin: Self.origin, random: { 1 })
        await outbox.start()
        try await outbox.persist(message("a"))
        await settleOutboxTasks()
        for _ in 0..<(seconds * 10) {
            await clock.advance(by: .milliseconds(100))
            await settleOutboxTasks()
        }
        #expect(courier.attempts.allSatisfy { $0.key == "a" })
        return (courier.attempts.map { $0.time - Self.origin.secondsSince1970 }, outbox)
    }

    @Test("A server's Retry-After is honoured: the next attempt waits for it, not for the shorter backoff")
    func retryAfter() async throws {
        let (times, outbox) = try await attemptTimes([.retry("HTTP 503", after: .seconds(30)),
                                                      .retry("HTTP 429", after: .milliseconds(10))], seconds: 40)
        #expect(times.count == 3, "\(times)")
        if times.count == 3 {
            #expect(abs(times[1] - times[0] - 30) < 0.15, "the 30 s the server asked for, not the 2 s backoff: \(times)")
            #expect(abs(times[2] - times[1] - 4) < 0.15, "a shorter Retry-After does not shorten the backoff: \(times)")
        }
        await outbox.stop()
    }

    @Test("Transient failures are retried with doubling, jittered backoff; the message is delivered once")
    func retries() async throws {
        let (times, outbox) = try await attemptTimes([.retry("HTTP 503"), .retry("connection refused")], seconds: 10)
        #expect(times.count == 3)
        if times.count == 3 {
            #expect(abs(times[1] - times[0] - 2) < 0.15, "first retry after 2 s: \(times)")
            #expect(abs(times[2] - times[1] - 4) < 0.15, "second after 4 s: \(times)")
        }
        let statistics = try await outbox.statistics()
        #expect(statistics.delivered == 1 && statistics.retried == 2 && statistics.pending == 0)
        await outbox.stop()
    }

    @Test("Permanent refusals are dropped and counted; the other messages are still delivered")
    func rejections() async throws {
        let clock = TestClock<Duration>()
        let courier = ScriptedCourier(script: [.reject("HTTP 400: bad line"), .delivered, .delivered],
                                      wallClock: WallClock(clock: clock, origin: Self.origin))
        let outbox = try Outbox(path: nil, couriers: [courier], clock: clock, origin: Self.origin)
        for key in ["a", "b", "c"] { try await outbox.persist(message(key)) }
        await outbox.flush()
        let statistics = try await outbox.statistics()
        #expect(statistics.rejected == 1 && statistics.delivered == 2 && statistics.pending == 0)
        #expect(courier.attempts.map(\.key) == ["a", "b", "c"])
    }

    @Test("Duplicates by key are stored once; the bounds drop the oldest and count them")
    func duplicatesAndBounds() async throws {
        let clock = TestClock<Duration>()
        var configuration = OutboxConfiguration()
        configuration.maximumBytes = 250
        configuration.maximumAge = .seconds(60)
        let courier = ScriptedCourier(script: [], wallClock: WallClock(clock: clock, origin: Self.origin))
        let outbox = try Outbox(path: nil, couriers: [courier], configuration: configuration, clock: clock,
                                origin: Self.origin)
        #expect(try await outbox.persist(message("a", bytes: 100)))
        #expect(try await outbox.persist(message("a", bytes: 100)) == false)
        try await outbox.persist(message("b", bytes: 100))
        try await outbox.persist(message("c", bytes: 100))
        var statistics = try await outbox.statistics()
        #expect(statistics.duplicates == 1 && statistics.dropped == 1 && statistics.pending == 2)
        #expect(statistics.pendingBytes == 200)
        await clock.advance(by: .seconds(61))
        try await outbox.persist(message("d", bytes: 10))
        statistics = try await outbox.statistics()
        #expect(statistics.dropped == 3 && statistics.pending == 1, "b and c were too old")
        await outbox.flush()
        #expect(courier.attempts.map(\.key) == ["d"])
    }

    @Test("The size bound reads a total the file keeps itself, right through inserts, drops and deliveries")
    func runningTotal() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let clock = TestClock<Duration>()
        var configuration = OutboxConfiguration()
        configuration.maximumBytes = 1_000
        let courier = ScriptedCourier(script: [], wallClock: WallClock(clock: clock, origin: Self.origin))
        let outbox = try Outbox(path: path, couriers: [courier], configuration: configuration, clock: clock,
                                origin: Self.origin)
        for index in 0..<40 { try await outbox.persist(message("m\(index)", bytes: 30 + index * 7)) }
        func totals() throws -> (kept: Int?, summed: Int) {
            let database = try DatabaseQueue(path: path)
            return try database.read { db in
                (try Int.fetchOne(db, sql: "SELECT value FROM counter WHERE name = 'pendingBytes'"),
                 try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(LENGTH(payload)), 0) FROM message") ?? 0)
            }
        }
        var (kept, summed) = try totals()
        #expect(kept == summed && summed <= 1_000 && summed > 0)
        let statistics = try await outbox.statistics()
        #expect(statistics.dropped > 0 && statistics.pendingBytes == summed)
        await outbox.flush()
        (kept, summed) = try totals()
        #expect(kept == 0 && summed == 0, "delivered: nothing left")
    }

    @Test("Messages and counters survive a restart; delivery resumes")
    func persistence() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let clock = TestClock<Duration>()
        do {
            let failing = ScriptedCourier(script: [.retry("down"), .retry("down")], wallClock: WallClock(clock: clock, origin: Self.origin))
            let outbox = try Outbox(path: path, couriers: [failing], clock: clock, origin: Self.origin)
            for key in ["a", "b"] { try await outbox.persist(message(key)) }
            await outbox.flush()
            #expect(try await outbox.statistics().pending == 2)
        }
        let courier = ScriptedCourier(script: [], wallClock: WallClock(clock: clock, origin: Self.origin))
        let reopened = try Outbox(path: path, couriers: [courier], clock: clock, origin: Self.origin)
        var statistics = try await reopened.statistics()
        // The failure of "a" held the destination back: "b" waited without an attempt.
        #expect(statistics.pending == 2 && statistics.enqueued == 2 && statistics.retried == 1)
        await reopened.flush()
        statistics = try await reopened.statistics()
        #expect(statistics.pending == 0 && statistics.delivered == 2)
        #expect(courier.attempts.map(\.key) == ["a", "b"], "same keys after the restart")
    }

    @Test("Messages for a destination without a courier stay stored for an outbox that has one")
    func destinationsWithoutCourier() async throws {
        let clock = TestClock<Duration>()
        let courier = ScriptedCourier(script: [], wallClock: WallClock(clock: clock, origin: Self.origin))
        let outbox = try Outbox(path: nil, couriers: [courier], clock: clock, origin: Self.origin)
        try await outbox.persist(message("mine"))
        try await outbox.persist(OutboxMessage(key: "graphite-1", destination: "graphite", payload: [1]))
        try await outbox.persist(OutboxMessage(key: "graphite-2", destination: "graphite", payload: [2]))
        await outbox.flush()
        let statistics = try await outbox.statistics()
        #expect(courier.attempts.map(\.key) == ["mine"])
        #expect(statistics.pending == 2 && statistics.rejected == 0 && statistics.pendingByDestination == ["graphite": 2])
        #expect(statistics.oldestPending == Self.origin.secondsSince1970)
        #expect(try await outbox.nextAttemptDate() == nil, "nothing this outbox can deliver waits")
    }
}
