public import Clocks

/// Moves a test clock forward in steps and lets the system under test settle after each one: the loop the engine,
/// player and telemetry tests share ("advance the clock, then wait until nothing is left to do").
///
/// ```swift
/// let stepper = ClockStepper(clock: clock)
/// await stepper.advance(by: .seconds(10), step: .milliseconds(100)) { await harness.settle() }
/// ```
public struct ClockStepper: Sendable {
    public let clock: TestClock<Duration>

    public init(clock: TestClock<Duration>) {
        self.clock = clock
    }

    /// Advances by `total`, `step` at a time, running `settle` after each step.
    public func advance(by total: Duration, step: Duration, isolation: isolated (any Actor)? = #isolation,
                        settle: () async -> Void) async {
        var elapsed = Duration.zero
        while elapsed < total {
            await clock.advance(by: step)
            await settle()
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
            await clock.advance(by: step)
            await settle()
            elapsed += step
        }
        return true
    }
}
