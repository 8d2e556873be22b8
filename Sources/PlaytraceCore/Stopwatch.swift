/// Reads elapsed time from an injected clock.
///
/// Playtrace takes every clock by injection as `any Clock<Duration>` (`ContinuousClock` in production, a test
/// clock in tests). A stopwatch pins a reference instant of that clock so that components can ask "how long
/// since the reference" and sleep, without opening the clock's existential `Instant` type themselves.
///
/// ```swift
/// let stopwatch = Stopwatch(clock: ContinuousClock())
/// try await stopwatch.sleep(for: .milliseconds(100))
/// print(stopwatch.elapsed)   // about 0.1 seconds
/// ```
public struct Stopwatch: Sendable {
    /// The injected clock.
    public let clock: any Clock<Duration>
    /// Reads the time elapsed (for components that read it on every event: they keep the closure rather than the
    /// stopwatch, whose copy would count references to the clock too).
    package let reading: @Sendable () -> Duration

    /// Starts a stopwatch at the clock's current instant.
    public init(clock: any Clock<Duration>) {
        self.clock = clock
        self.reading = Self.makeReading(clock)
    }

    private static func makeReading<C: Clock<Duration>>(_ clock: C) -> @Sendable () -> Duration {
        // The production clock gets a reading specialized for it (read on every telemetry event); others, the
        // generic one.
        if let continuous = clock as? ContinuousClock {
            let origin = continuous.now
            return { origin.duration(to: ContinuousClock.now) }
        }
        let origin = clock.now
        return { origin.duration(to: clock.now) }
    }

    /// Time elapsed on the clock since the stopwatch started.
    public var elapsed: Duration { reading() }

    /// Time elapsed since the stopwatch started, as seconds.
    public var elapsedSeconds: Double { elapsed.seconds }

    /// Sleeps on the injected clock; throws `CancellationError` when the task is cancelled.
    public func sleep(for duration: Duration) async throws {
        try await clock.sleep(for: duration)
    }
}

extension Duration {
    /// The duration as a number of seconds.
    @inlinable public var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }
}
