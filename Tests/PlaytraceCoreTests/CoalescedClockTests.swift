import Foundation
import Testing
@testable import PlaytraceCore

/// The shared timer of a process of many viewers. These run on real time (the clock is one): each sleeps a few tens
/// of milliseconds. What they hold exactly is what the clock promises (never early, one wake-up per tick); how late
/// is bounded loosely, as a loaded machine's scheduler delays every task.
@Suite("CoalescedClock: sleepers share one timer, never wake early, and cancel at once")
struct CoalescedClockTests {
    @Test("A sleep ends at or after its deadline, on the grid, soon after it")
    func neverEarly() async throws {
        let clock = CoalescedClock(granularity: .milliseconds(10))
        for wait in [Duration.milliseconds(1), .milliseconds(15), .milliseconds(40)] {
            let start = clock.now
            try await clock.sleep(for: wait)
            let slept = start.duration(to: clock.now)
            #expect(slept >= wait)
            // Loose: under the whole suite's load, a 1 ms sleep once took 5.1 s to be resumed by the pool. A sleeper
            // the timer lost would wait for ever.
            #expect(slept < wait + .seconds(30))
        }
        // A deadline already past returns at once, without a wake-up.
        let before = clock.wakeUps
        try await clock.sleep(until: clock.now.advanced(by: .milliseconds(-5)))
        #expect(clock.wakeUps == before)
    }

    @Test("Two thousand sleepers over 200 ms cost at most one wake-up per tick, and each wakes on time")
    func sleepersShareTheTimer() async throws {
        let clock = CoalescedClock(granularity: .milliseconds(10))
        let early = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<2_000 {
                group.addTask {
                    // Each from its own start: a task that a loaded machine starts late still sleeps.
                    let deadline = clock.now.advanced(by: .microseconds(100 * index + 1_000))
                    try? await clock.sleep(until: deadline)
                    return clock.now < deadline
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(early == 0)
        // Deadlines over some 200 ms (longer when the tasks start late) on a 10 ms grid: one wake-up per tick at
        // most, far fewer than the sleepers.
        #expect(clock.wakeUps >= 1 && clock.wakeUps <= 100, "\(clock.wakeUps) wake-ups")
    }

    @Test("A cancelled sleep throws CancellationError at once, however far its deadline")
    func cancellation() async throws {
        let clock = CoalescedClock(granularity: .milliseconds(10))
        let sleeper = Task { try await clock.sleep(for: .seconds(3_600)) }
        try await Task.sleep(for: .milliseconds(20))
        let start = ContinuousClock.now
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(ContinuousClock.now - start < .seconds(30))
        // Cancelled before it sleeps: it does not sleep at all.
        let cancelledFirst = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(3_600))
        }
        await #expect(throws: CancellationError.self) { try await cancelledFirst.value }
        // A sleeper that comes after a far one wakes at its own, sooner, deadline.
        let far = Task { try await clock.sleep(for: .seconds(3_600)) }
        let near = ContinuousClock.now
        try await clock.sleep(for: .milliseconds(30))
        #expect(ContinuousClock.now - near < .seconds(30))
        far.cancel()
    }

    @Test("FastRandom(seed:) gives the same outputs for the same seed, other ones for another")
    func seededRandom() {
        var first = FastRandom(seed: 42)
        var again = FastRandom(seed: 42)
        var other = FastRandom(seed: 43)
        let outputs = (0..<8).map { _ in first.next() }
        #expect(outputs == (0..<8).map { _ in again.next() })
        #expect(outputs != (0..<8).map { _ in other.next() })
        #expect(Set(outputs).count == 8)
    }
}
