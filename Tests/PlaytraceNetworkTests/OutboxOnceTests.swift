import Clocks
import Foundation
import GRDB
import Logging
import PlaytraceCore
import PlaytraceNetwork
import Testing

/// A courier whose attempts take turns with other tasks (so that concurrent deliveries interleave) and can be
/// made to hang until cancelled; it records every attempt.
final class SlowCourier: OutboxCourier, Sendable {
    let name: String
    private let attempts = Locked<[(key: String, payload: [UInt8])]>([])
    private let hangs: Bool
    private let clock: any Clock<Duration>

    init(name: String = "test", hangs: Bool = false, clock: any Clock<Duration>) {
        self.name = name
        self.hangs = hangs
        self.clock = clock
    }

    func deliver(_ message: OutboxMessage) async -> DeliveryOutcome {
        attempts.withLock { $0.append((message.key, message.payload)) }
        for _ in 0..<20 { await Task.yield() }
        if hangs {
            do { try await clock.sleep(for: .seconds(3_600)) } catch { return .retry("cancelled") }
        }
        return .delivered
    }

    var keys: [String] { attempts.withLock { $0.map(\.key) } }
    var payloads: [[UInt8]] { attempts.withLock { $0.map(\.payload) } }
}

@Suite("Outbox: once, in time, and safe with damaged files")
struct OutboxOnceTests {
    static let origin = StreamDate(secondsSince1970: 1_800_000_000)

    private func message(_ key: String) -> OutboxMessage {
        OutboxMessage(key: key, destination: "test", payload: Array(key.utf8))
    }

    private func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString).sqlite").path
    }


    @Test("Started, each message leaves as it is enqueued; a flush racing the background delivery sends none twice")
    func onceWhileStarted() async throws {
        let clock = TestClock<Duration>()
        let courier = SlowCourier(clock: clock)
        let outbox = try Outbox(path: nil, couriers: [courier], clock: clock, origin: Self.origin)
        await outbox.start()
        for index in 0..<20 { try await outbox.persist(message("m\(index)")) }
        let drain = await outbox.flush()
        await settleOutboxTasks()
        #expect(courier.keys.sorted() == (0..<20).map { "m\($0)" }.sorted())
        #expect(courier.keys == (0..<20).map { "m\($0)" }, "in order")
        let statistics = try await outbox.statistics()
        #expect(statistics.delivered == 20 && statistics.enqueued == 20 && statistics.pending == 0)
        #expect(drain == OutboxDrain(pending: 0, paused: [:], timedOut: false))
        await outbox.stop()
    }

    @Test("A message submitted with a payload to make gets it made, and a key of its own, off the caller's thread")
    func lazySubmission() async throws {
        let clock = TestClock<Duration>()
        let courier = SlowCourier(clock: clock)
        let outbox = try Outbox(path: nil, couriers: [courier], clock: clock, origin: Self.origin)
        for index in 0..<3 {
            outbox.submit(destination: "test", metadata: ["url": "http://127.0.0.1/"]) { Array("batch \(index)".utf8) }
        }
        let drain = await outbox.flush()
        #expect(drain.pending == 0)
        #expect(courier.payloads == (0..<3).map { Array("batch \($0)".utf8) }, "made, in order")
        #expect(Set(courier.keys).count == 3 && courier.keys.allSatisfy { $0.count == 36 }, "a random key each")
    }

    @Test("Two outboxes sharing one file (two sessions) send each message once between them")
    func sharedFile() async throws {
        let path = temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let clock = TestClock<Duration>()
        let first = SlowCourier(clock: clock)
        let second = SlowCourier(clock: clock)
        let one = try Outbox(path: path, couriers: [first], clock: clock, origin: Self.origin)
        let other = try Outbox(path: path, couriers: [second], clock: clock, origin: Self.origin)
        for index in 0..<30 { try await (index.isMultiple(of: 2) ? one : other).persist(message("m\(index)")) }
        async let a = one.flush()
        async let b = other.flush()
        _ = await (a, b)
        let keys = first.keys + second.keys
        #expect(keys.count == 30 && Set(keys).count == 30, "\(first.keys.count) + \(second.keys.count) attempts")
        #expect(try await one.statistics().delivered == 30)
    }

    @Test("A drain retries a failing destination as its backoff allows, within its time")
    func drainRetries() async throws {
        let clock = TestClock<Duration>()
        let courier = ScriptedCourier(script: [.retry("HTTP 503"), .retry("HTTP 503"), .delivered],
                                      wallClock: WallClock(clock: clock, origin: Self.origin))
        var configuration = OutboxConfiguration()
        configuration.initialBackoff = .seconds(1)
        // The default poll interval (60 s): the retries wake the outbox at their own time.
        let outbox = try Outbox(path: nil, couriers: [courier], configuration: configuration, clock: clock,
                                origin: Self.origin, random: { 1 })
        try await outbox.persist(message("a"))
        try await outbox.persist(message("b"))
        let drain = Task { await outbox.drain(within: .seconds(10)) }
        for _ in 0..<50 {
            await settleOutboxTasks()
            await clock.advance(by: .milliseconds(100))
        }
        let result = await drain.value
        #expect(result == OutboxDrain(pending: 0, paused: [:], timedOut: false))
        #expect(courier.attempts.map(\.key) == ["a", "a", "a", "b"])
        #expect(try await outbox.statistics().delivered == 2)
    }

    @Test("A drain stops at its deadline, abandoning an attempt that hangs; the message stays stored")
    func drainDeadline() async throws {
        let clock = TestClock<Duration>()
        let courier = SlowCourier(hangs: true, clock: clock)
        let outbox = try Outbox(path: nil, couriers: [courier], clock: clock, origin: Self.origin)
        try await outbox.persist(message("a"))
        try await outbox.persist(message("b"))
        let drain = Task { await outbox.drain(within: .seconds(5)) }
        for _ in 0..<10 {
            await settleOutboxTasks()
            await clock.advance(by: .seconds(1))
        }
        let result = await drain.value
        #expect(result.timedOut && result.pending == 2)
        #expect(courier.keys == ["a"], "one request to a server that does not answer, not one per message")
        let statistics = try await outbox.statistics()
        #expect(statistics.pending == 2 && statistics.delivered == 0)
    }

    @Test("A destination that refuses its set-up (404, 401) is paused: its messages are kept, it is said once")
    func pause() async throws {
        let clock = TestClock<Duration>()
        let courier = ScriptedCourier(script: [.pause("HTTP 404: database not found"), .pause("HTTP 404: database not found")],
                                      wallClock: WallClock(clock: clock, origin: Self.origin))
        var configuration = OutboxConfiguration()
        configuration.pauseDuration = .seconds(30)
        configuration.pollInterval = .seconds(1)
        let logs = LogCapture()
        let outbox = try Outbox(path: nil, couriers: [courier], configuration: configuration, clock: clock,
                                origin: Self.origin, logger: logs.logger)
        for key in ["a", "b", "c"] { try await outbox.persist(message(key)) }
        let drain = await outbox.flush()
        #expect(drain == OutboxDrain(pending: 3, paused: ["test": "HTTP 404: database not found"], timedOut: false,
                                      pendingByDestination: ["test": 3]))
        #expect(courier.attempts.map(\.key) == ["a"])
        await outbox.start()
        for _ in 0..<75 {
            await clock.advance(by: .seconds(1))
            await settleOutboxTasks()
        }
        // Tried again after each pause (30 s, 60 s): refused once more, then delivered with the rest.
        #expect(courier.attempts.map(\.key) == ["a", "a", "a", "b", "c"])
        #expect(await outbox.pausedDestinations().isEmpty)
        let statistics = try await outbox.statistics()
        #expect(statistics.delivered == 3 && statistics.rejected == 0 && statistics.retried == 0)
        #expect(logs.messages.filter { $0.contains("destination paused") }.count == 1, "\(logs.messages)")
        await outbox.stop()
    }

    @Test("A damaged row is set aside and reported; the other messages are delivered")
    func damagedRow() async throws {
        let path = temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let clock = TestClock<Duration>()
        do {
            let outbox = try Outbox(path: path, couriers: [], clock: clock, origin: Self.origin)
            for key in ["a", "b", "c"] { try await outbox.persist(message(key)) }
        }
        let database = try DatabaseQueue(path: path)
        try await database.write { db in
            try db.execute(sql: "UPDATE message SET metadata = 'not json' WHERE key = 'b'")
        }
        try database.close()
        let courier = SlowCourier(clock: clock)
        let outbox = try Outbox(path: path, couriers: [courier], clock: clock, origin: Self.origin)
        let drain = await outbox.flush()
        #expect(courier.keys == ["a", "c"])
        let statistics = try await outbox.statistics()
        #expect(statistics.quarantined == 1 && statistics.pending == 1 && statistics.delivered == 2)
        #expect(drain.pending == 1 && !drain.timedOut)
    }

    @Test("An SQLite file that is not an outbox is refused and left untouched; a file that is not SQLite is refused")
    func foreignFiles() async throws {
        let path = temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let database = try DatabaseQueue(path: path)
        try await database.write { db in try db.execute(sql: "CREATE TABLE people (name TEXT)") }
        try database.close()
        #expect(throws: OutboxError.notAnOutbox(path: path, tables: ["people"])) {
            try Outbox(path: path, couriers: [])
        }
        let reopened = try DatabaseQueue(path: path)
        let tables = try await reopened.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        #expect(tables == ["people"])
        try reopened.close()

        let text = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: text) }
        try Data("hello, not a database\n".utf8).write(to: URL(fileURLWithPath: text))
        #expect {
            try Outbox(path: text, couriers: [])
        } throws: { error in
            guard case .unreadableStore = error as? OutboxError else { return false }
            return true
        }
        #expect(try String(contentsOfFile: text, encoding: .utf8) == "hello, not a database\n")
    }
}

/// Collects what a logger says.
final class LogCapture: Sendable {
    private let lines = Locked<[String]>([])

    var logger: Logger {
        Logger(label: "test") { _ in Handler(capture: self) }
    }

    var messages: [String] { lines.withLock { $0 } }

    fileprivate func append(_ line: String) { lines.withLock { $0.append(line) } }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            capture.append("\(event.level) \(event.message) \(event.metadata ?? [:])")
        }
    }
}
