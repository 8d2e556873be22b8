
/// Moves a test clock forward in steps and lets the system under test settle after each one: the loop the engine,
/// player and ad tests share ("advance the clock, then wait until nothing is left to do").
///
/// A step stops at every instant inside it at which a sleeper wakes (an engine's tick timed to an ad event's
/// boundary, a retry), waits for what woke to run (``SteppingClock/waitForWokenSleepers(timeout:)``) and settles
/// there, so that nothing due at an instant reads the clock after it has moved on: on a loaded machine a woken task
/// can take longer to run than `TestClock`'s own yields allow.
///
/// ```swift
/// let stepper = ClockStepper(clock: clock)
/// await stepper.advance(by: .seconds(10), step: .milliseconds(100)) { await harness.settle() }
/// ```
public struct ClockStepper: Sendable {
    public let clock: SteppingClock

    public init(clock: SteppingClock) {
        self.clock = clock
    }

    /// Advances by `total`, `step` at a time, running `settle` after each step.
    public func advance(by total: Duration, step: Duration, isolation: isolated (any Actor)? = #isolation,
                        settle: () async -> Void) async {
        var elapsed = Duration.zero
        while elapsed < total {
            await self.step(by: step, settle: settle)
            elapsed += step
        }
    }

    /// Advances `step` at a time, settling after each step, until `condition` holds; `false` when `limit` of clock
    /// time passed first (the caller says what it waited for).
    public func advance(until condition: () async -> Bool, limit: Duration, step: Duration,
                        isolation: isolated (any Actor)? = #isolation, settle: () async -> Void) async -> Bool {
        var elapsed = Duration.zero
        while await !condition() {
            guard elapsed < limit else { return false }
            await self.step(by: step, settle: settle)
            elapsed += step
        }
        return true
    }

    /// One step: to each instant inside it at which a sleeper wakes, then to its end, settling at each. (A
    /// sleeper that has not run within ``SteppingClock/waitForWokenSleepers(timeout:)``'s bound is late, which the
    /// test's own checks of timing then show.)
    private func step(by step: Duration, isolation: isolated (any Actor)? = #isolation, settle: () async -> Void) async {
        let end = clock.now.advanced(by: step)
        while let next = clock.nextDeadline(through: end), next < end {
            await clock.advance(to: next)
            await clock.waitForWokenSleepers()
            await settle()
        }
        await clock.advance(to: end)
        await clock.waitForWokenSleepers()
        await settle()
    }
}
