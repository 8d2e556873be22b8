import Clocks
import Foundation
import PlaytraceCore
import PlaytraceNetwork
import Testing

/// A server's Retry-After holds in the end-of-session drain too (issue 44): the drain used to make every message due
/// at once and retried a batch told `Retry-After: 30` a few seconds later.
@Suite("Outbox: Retry-After in the drain")
struct OutboxRetryAfterDrainTests {
    static let origin = StreamDate(secondsSince1970: 1_800_000_000)

    @Test("A message whose server asked for 30 s is not retried by a 5 s drain: it stays, due when the server said")
    func drainKeepsRetryAfter() async throws {
        let clock = TestClock<Duration>()
        let courier = ScriptedCourier(script: [.retry("HTTP 503", after: .seconds(30))],
                                      wallClock: WallClock(clock: clock, origin: Self.origin))
        let outbox = try Outbox(path: nil, couriers: [courier], clock: clock, origin: Self.origin, random: { 1 })
        await outbox.start()
        try await outbox.persist(OutboxMessage(key: "a", destination: "test", payload: [65]))
        await settleOutboxTasks()
        #expect(courier.attempts.count == 1, "the first attempt, refused with Retry-After: 30")
        let drain = await outbox.drain(within: .seconds(5))
        #expect(courier.attempts.count == 1, "not sent again before the 30 s: \(courier.attempts)")
        #expect(drain.pending == 1 && !drain.timedOut)
        let due = try #require(drain.retryAfter["test"])
        #expect(abs(due - (Self.origin.secondsSince1970 + 30)) < 0.01, "due when the server said: \(due)")
        await outbox.stop()
    }

    @Test("A backoff without Retry-After is still cut short by the drain: the message is tried again and delivered")
    func drainRetriesPlainBackoff() async throws {
        let clock = TestClock<Duration>()
        let courier = ScriptedCourier(script: [.retry("HTTP 503")], wallClock: WallClock(clock: clock, origin: Self.origin))
        var configuration = OutboxConfiguration()
        configuration.initialBackoff = .seconds(30)
        let outbox = try Outbox(path: nil, couriers: [courier], configuration: configuration, clock: clock,
                                origin: Self.origin, random: { 1 })
        await outbox.start()
        try await outbox.persist(OutboxMessage(key: "a", destination: "test", payload: [65]))
        await settleOutboxTasks()
        let drain = await outbox.drain(within: .seconds(5))
        #expect(courier.attempts.count == 2 && drain.pending == 0 && drain.retryAfter.isEmpty)
        await outbox.stop()
    }
}
