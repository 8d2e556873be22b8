import Clocks
import Foundation
import PlaytraceCore
import PlaytraceNetwork
import Testing

/// Keys remembered after delivery: what lets a producer that restarts fire the same message again without it
/// being sent twice, and read back what it had handed over.
@Suite("Outbox: remembered keys")
struct OutboxRememberedKeyTests {
    static let origin = StreamDate(secondsSince1970: 1_800_000_000)

    private func message(_ key: String, remembered: Bool = true) -> OutboxMessage {
        OutboxMessage(key: key, destination: "test", payload: Array("x".utf8), remembersKey: remembered)
    }

    @Test("A remembered key enqueued again after delivery, even by another process after a restart, is a duplicate")
    func rememberedAcrossRestart() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let clock = TestClock<Duration>()
        let wallClock = WallClock(clock: clock, origin: Self.origin)
        do {
            let courier = ScriptedCourier(script: [.delivered, .reject("bad")], wallClock: wallClock)
            let outbox = try Outbox(path: path, couriers: [courier], clock: clock, origin: Self.origin)
            for key in ["beacon:s1:a", "beacon:s1:b", "other:c"] { try await outbox.persist(message(key)) }
            try await outbox.persist(message("beacon:s1:forgotten", remembered: false))
            await outbox.flush()
            #expect(courier.attempts.map(\.key) == ["beacon:s1:a", "beacon:s1:b", "other:c", "beacon:s1:forgotten"])
            #expect(try await outbox.persist(message("beacon:s1:a")) == false, "delivered and remembered")
            try await outbox.persist(message("beacon:s1:pending"))
        }
        let courier = ScriptedCourier(script: [.retry("down")], wallClock: wallClock)
        let reopened = try Outbox(path: path, couriers: [courier], clock: clock, origin: Self.origin)
        #expect(try reopened.keyStates(withPrefix: "beacon:s1:") == [
            "beacon:s1:a": .delivered, "beacon:s1:b": .rejected, "beacon:s1:pending": .pending(attempts: 0),
        ])
        #expect(try await reopened.persist(message("beacon:s1:a")) == false)
        #expect(try await reopened.persist(message("beacon:s1:b")) == false, "a refused key is not tried again either")
        #expect(try await reopened.persist(message("beacon:s1:forgotten")), "a key that did not ask to be remembered is not")
        await reopened.flush()
        #expect(try reopened.keyStates(withPrefix: "beacon:s1:p") == ["beacon:s1:pending": .pending(attempts: 1)])
        #expect(try reopened.keyStates(withPrefix: "beacon:s2:").isEmpty)
        #expect(try await reopened.statistics().duplicates == 3)
    }

    @Test("Remembered keys are forgotten after the outbox's maximum age")
    func forgottenAfterMaximumAge() async throws {
        let clock = TestClock<Duration>()
        var configuration = OutboxConfiguration()
        configuration.maximumAge = .seconds(60)
        let courier = ScriptedCourier(script: [], wallClock: WallClock(clock: clock, origin: Self.origin))
        let outbox = try Outbox(path: nil, couriers: [courier], configuration: configuration, clock: clock, origin: Self.origin)
        try await outbox.persist(message("k"))
        await outbox.flush()
        await clock.advance(by: .seconds(30))
        #expect(try await outbox.persist(message("k")) == false)
        await clock.advance(by: .seconds(31))
        #expect(try await outbox.persist(message("k")), "61 s after its delivery the key is forgotten")
    }
}
