import Clocks
import PlaytraceCore
import PlaytraceNetwork
import Testing

/// `Outbox.submit` is what a telemetry backend calls on the thread that emitted an event: it must not even wake the
/// storing task (a wake costs the waker several microseconds). These tests pin the hand-over's timing on a test
/// clock: a resting storing task finds a submission at its next look, a flush stores at once, and a storing task
/// that went idle is started again by the next submission.
@Suite("Outbox: submissions without waking a thread")
struct OutboxSubmissionTests {
    static let origin = StreamDate(secondsSince1970: 1_800_000_000)

    private func submit(_ outbox: Outbox, _ text: String) {
        outbox.submit(destination: "test") { Array(text.utf8) }
    }

    /// Stored messages (enqueued into the file), once the outbox's tasks had their turn.
    private func stored(_ outbox: Outbox) async throws -> Int {
        await settleOutboxTasks()
        return try await outbox.statistics().enqueued
    }

    /// Waits (in real time, a bounded number of turns) until `count` messages are stored.
    private func storedEventually(_ outbox: Outbox, _ count: Int) async throws -> Bool {
        for _ in 0..<200 where try await stored(outbox) < count {}
        return try await outbox.statistics().enqueued == count
    }

    @Test("A submission waits for the resting storing task's next look (storeInterval), or a flush; an idle task is started at once")
    func restingStorer() async throws {
        let clock = TestClock<Duration>()
        var configuration = OutboxConfiguration()
        configuration.storeInterval = .milliseconds(250)
        configuration.storeLinger = .seconds(1)
        let outbox = try Outbox(path: nil, couriers: [], configuration: configuration, clock: clock, origin: Self.origin)

        // No storing task yet: the first submission starts one, which stores it at once.
        submit(outbox, "first")
        #expect(try await storedEventually(outbox, 1))

        // The task now rests until its next look: a submission does not wake it.
        submit(outbox, "second")
        #expect(try await stored(outbox) == 1, "stored only at the next look")
        await clock.advance(by: .milliseconds(250))
        #expect(try await storedEventually(outbox, 2), "stored at the next look")

        // A flush does not wait for the next look.
        submit(outbox, "third")
        let drain = await outbox.flush()
        #expect(drain.lost == 0)
        #expect(try await outbox.statistics().enqueued == 3)

        // After storeLinger without a submission the task ends; the next submission starts one, at once.
        for _ in 0..<8 {
            await clock.advance(by: .milliseconds(250))
            await settleOutboxTasks()
        }
        submit(outbox, "fourth")
        #expect(try await storedEventually(outbox, 4), "an idle storing task is started by a submission")
    }

    @Test("Submissions coming faster than one a look are stored in order, none lost, under many looks")
    func manySubmissions() async throws {
        let clock = TestClock<Duration>()
        let courier = SlowCourier(clock: clock)
        let outbox = try Outbox(path: nil, couriers: [courier], clock: clock, origin: Self.origin)
        for index in 0..<500 {
            submit(outbox, "m\(index)")
            if index.isMultiple(of: 50) {
                await clock.advance(by: .milliseconds(20))
                await settleOutboxTasks()
            }
        }
        let drain = await outbox.flush()
        #expect(drain.lost == 0 && drain.pending == 0)
        #expect(courier.payloads == (0..<500).map { Array("m\($0)".utf8) }, "every one, in order")
    }

    @Test("Submissions beyond maximumSubmitted while the storing task cannot take them are refused and counted lost; the ones queued are stored, and there is room again after")
    func boundedSubmissions() async throws {
        let clock = TestClock<Duration>()
        var configuration = OutboxConfiguration()
        configuration.storeInterval = .milliseconds(250)
        configuration.maximumSubmitted = 3
        let outbox = try Outbox(path: nil, couriers: [], configuration: configuration, clock: clock, origin: Self.origin)
        submit(outbox, "first")
        #expect(try await storedEventually(outbox, 1))

        // The storing task rests until its next look: the queue fills to its bound, the rest are refused.
        for index in 0..<8 { submit(outbox, "waiting \(index)") }
        let drain = await outbox.flush()
        #expect(drain.lost == 5, "eight submitted, three queued")
        #expect(try await outbox.statistics().enqueued == 4)

        // Stored, the queue has room again: nothing more is lost.
        for index in 0..<3 { submit(outbox, "later \(index)") }
        let later = await outbox.flush()
        #expect(later.lost == 5)
        #expect(try await outbox.statistics().enqueued == 7)
    }
}
