public import Clocks
import PlaytraceCore

/// A test clock that knows who sleeps on it: a `TestClock` whose sleepers are counted, so that a test that moves it
/// can wait until every sleeper it woke has actually run before it moves it again.
///
/// `TestClock.advance(by:)` finishes each due sleeper and yields a few times, but does not wait for the woken task
/// to run: on a loaded machine an engine tick woken at 0.2 s could first read the clock after the next step had
/// moved it to 0.3 s, and report its work (a progress report, a beacon's crossing) one step late. ``ClockStepper``
/// waits for ``hasWokenSleepers`` to be false after each step.
///
/// ```swift
/// let clock = SteppingClock()
/// let engine = HeadlessEngine(clock: clock, transport: transport)
/// await ClockStepper(clock: clock).advance(by: .seconds(10), step: .milliseconds(100)) { await harness.settle() }
/// ```
public final class SteppingClock: Clock, Sendable {
    public typealias Duration = Swift.Duration
    public typealias Instant = TestClock<Duration>.Instant

    /// The clock the sleepers wait on.
    public let base = TestClock<Duration>()
    /// Each sleeper (by a number of its own, from its call to ``sleep(until:tolerance:)`` to its return): its deadline,
    /// and how many advances had begun when it started to sleep.
    private let sleepers = Locked<Sleepers>(Sleepers())

    private struct Sleepers {
        var next = 0
        var advances = 0
        var waiting: [Int: (deadline: Instant, advances: Int)] = [:]
    }

    public init() {}

    public var now: Instant { base.now }
    public var minimumResolution: Duration { base.minimumResolution }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = sleepers.withLock { state in
            state.next += 1
            state.waiting[state.next] = (deadline, state.advances)
            return state.next
        }
        defer { _ = sleepers.withLock { $0.waiting.removeValue(forKey: id) } }
        try await base.sleep(until: deadline, tolerance: tolerance)
    }

    /// Whether a sleeper that an advance woke has not yet returned from its sleep: its task has not run yet. (One
    /// that began to sleep during the last advance is not counted: one that sleeps until the instant the clock
    /// stands at waits for the next advance.)
    public var hasWokenSleepers: Bool {
        let now = base.now
        return sleepers.withLock { state in
            state.waiting.values.contains { $0.deadline <= now && $0.advances < state.advances }
        }
    }

    /// The earliest deadline of a sleeper after the clock's instant and no later than `limit`: the next instant
    /// at which something wakes.
    public func nextDeadline(through limit: Instant) -> Instant? {
        let now = base.now
        return sleepers.withLock { state in
            state.waiting.values.lazy.map(\.deadline).filter { $0 > now && $0 <= limit }.min()
        }
    }

    /// Moves the clock forward by `duration`, waking every sleeper due by then.
    public func advance(by duration: Duration = .zero) async {
        await advance(to: base.now.advanced(by: duration))
    }

    /// Moves the clock to `deadline`, waking every sleeper due by then.
    public func advance(to deadline: Instant) async {
        sleepers.withLock { $0.advances += 1 }
        await base.advance(to: deadline)
    }

    /// Waits, in real time (a millisecond at a time, at most `timeout`), until every woken sleeper has run; `false`
    /// when one still had not.
    @discardableResult
    public func waitForWokenSleepers(timeout: Duration = .seconds(20)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while hasWokenSleepers {
            guard ContinuousClock.now < deadline else { return false }
            await Task.yield()
            try? await Task.sleep(for: .milliseconds(1))
        }
        return true
    }
}
