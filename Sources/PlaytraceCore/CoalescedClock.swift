import Dispatch
import Foundation
import HeapModule
import Synchronization

/// A clock on real time whose sleepers share one timer: every sleep ends on the next tick of a grid (a
/// ``granularity`` apart) at or after its deadline, and one thread wakes once per tick that someone waits for and
/// resumes them all.
///
/// A process of thousands of viewers (the probe) sleeps tens of thousands of times a second: engine ticks, session
/// ticks, playlist refreshes, metadata polls. On the system clock each sleep is a timer of its own, armed and
/// fired by the dispatch manager and a worker thread woken for it; here they cost an entry in a heap, and the
/// process wakes at most once per tick whatever the number of sleepers. A sleep never ends before its deadline, and
/// at most one granularity after it (plus the scheduler's delay).
///
/// ```swift
/// let clock = CoalescedClock(granularity: .milliseconds(10))
/// try await clock.sleep(for: .milliseconds(25))   // returns on the grid's tick at or after 25 ms
/// ```
public final class CoalescedClock: Clock, Sendable {
    public typealias Instant = ContinuousClock.Instant

    /// The grid's step: the most a sleep ends after its deadline (beyond the scheduler's delay).
    public let granularity: Duration
    private let base = ContinuousClock()
    private let origin: ContinuousClock.Instant
    /// What the sleepers and the driver's thread share (the thread keeps it, not the clock, so that the clock can go).
    private let shared = Shared()

    private final class Shared: Sendable {
        let state = Mutex(State())
        /// Wakes the driver: when a sleeper's tick comes before the one it waits for, and when the clock goes.
        let wake = DispatchSemaphore(value: 0)
    }

    private struct Sleeper {
        var continuation: CheckedContinuation<Void, any Error>
        var tick: Int64
    }

    private struct State {
        var sleepers: [UInt64: Sleeper] = [:]
        /// The sleepers of each tick, by id; `ticks` holds each tick that has some, once.
        var byTick: [Int64: [UInt64]] = [:]
        var ticks = Heap<Int64>()
        /// Sleeps cancelled before they were registered.
        var cancelledEarly: Set<UInt64> = []
        var nextID: UInt64 = 0
        /// The tick the driver sleeps until (nil: it waits for a sleeper).
        var driverTarget: Int64?
        var isStopped = false
        /// How many times the driver has woken to resume sleepers.
        var wakeUps = 0
    }

    /// - Parameter granularity: the grid's step (at least a microsecond).
    public init(granularity: Duration = .milliseconds(10)) {
        self.granularity = max(granularity, .microseconds(1))
        origin = base.now
        let thread = Thread { [shared, base, origin, granularity = self.granularity] in
            Self.drive(shared, base: base, origin: origin, granularity: granularity)
        }
        thread.name = "playtrace.coalesced-clock"
        thread.start()
    }

    deinit {
        shared.state.withLock { $0.isStopped = true }
        shared.wake.signal()
    }

    public var now: Instant { base.now }

    public var minimumResolution: Duration { granularity }

    /// How many times the shared timer has fired so far (what thousands of sleepers cost the process).
    public var wakeUps: Int { shared.state.withLock { $0.wakeUps } }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        guard deadline > base.now else { return }
        let tick = Self.tick(at: deadline, origin: origin, granularity: granularity)
        let shared = self.shared
        let id = shared.state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (refused, signals) = shared.state.withLock { state -> (Bool, Bool) in
                    if state.cancelledEarly.remove(id) != nil { return (true, false) }
                    state.sleepers[id] = Sleeper(continuation: continuation, tick: tick)
                    if state.byTick[tick] == nil { state.ticks.insert(tick) }
                    state.byTick[tick, default: []].append(id)
                    // The driver sleeps longer than this sleeper may: it must look again.
                    let signals = state.driverTarget.map { tick < $0 } ?? true
                    if signals { state.driverTarget = tick }
                    return (false, signals)
                }
                if refused {
                    continuation.resume(throwing: CancellationError())
                } else if signals {
                    shared.wake.signal()
                }
            }
        } onCancel: {
            let continuation = shared.state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    state.cancelledEarly.insert(id)
                    return nil
                }
                state.byTick[sleeper.tick]?.removeAll { $0 == id }
                return sleeper.continuation
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// The first tick of the grid at or after `instant`.
    private static func tick(at instant: Instant, origin: Instant, granularity: Duration) -> Int64 {
        let since = origin.duration(to: instant)
        // In units of the granularity, rounded up: a sleep never ends before its deadline.
        let ticks = (since / granularity).rounded(.up)
        return ticks >= Double(Int64.max) ? Int64.max : Int64(max(ticks, 0))
    }

    /// The driver's loop, on its own thread: resumes the sleepers whose tick has come, then sleeps until the next
    /// tick someone waits for (or until a sleeper or the clock's end wakes it).
    private static func drive(_ shared: Shared, base: ContinuousClock, origin: Instant, granularity: Duration) {
        while true {
            let now = base.now
            let current = Int64(max((origin.duration(to: now) / granularity).rounded(.down), 0))
            // A sleeper keeps its clock, so a clock that went has none left: its thread ends.
            let (due, next, stopped) = shared.state.withLock { state -> ([CheckedContinuation<Void, any Error>], Int64?, Bool) in
                if state.isStopped { return ([], nil, true) }
                var due: [CheckedContinuation<Void, any Error>] = []
                while let tick = state.ticks.min, tick <= current {
                    state.ticks.removeMin()
                    for id in state.byTick.removeValue(forKey: tick) ?? [] {
                        if let sleeper = state.sleepers.removeValue(forKey: id) { due.append(sleeper.continuation) }
                    }
                }
                if !due.isEmpty { state.wakeUps += 1 }
                state.driverTarget = state.ticks.min
                return (due, state.driverTarget, false)
            }
            for continuation in due { continuation.resume() }
            if stopped { return }
            if let next {
                let at = origin.advanced(by: granularity * next)
                let remaining = now.duration(to: at)
                let nanoseconds = max(remaining.components.seconds, 0) * 1_000_000_000
                    + remaining.components.attoseconds / 1_000_000_000
                _ = shared.wake.wait(timeout: .now() + .nanoseconds(Int(clamping: max(nanoseconds, 0))))
            } else {
                shared.wake.wait()
            }
        }
    }
}
