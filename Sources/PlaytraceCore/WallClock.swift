public import Foundation

/// Wall-clock dates derived from the injected monotonic clock: the date when the wall clock was created, plus the
/// time elapsed since on that clock.
///
/// Components that must stamp what they report with a date (telemetry events, beacons) use it, so that a test
/// clock drives dates too and a whole session's timestamps are deterministic.
///
/// ```swift
/// let wall = WallClock(clock: testClock, origin: StreamDate(secondsSince1970: 1_800_000_000))
/// await testClock.advance(by: .seconds(2))
/// wall.now   // origin + 2 s
/// ```
public struct WallClock: Sendable {
    /// The monotonic reading the dates follow.
    public let stopwatch: Stopwatch
    /// The date at the start.
    public let origin: StreamDate

    /// A wall clock that starts at `origin` (now, by default) and follows `clock`.
    public init(clock: any Clock<Duration>, origin: StreamDate = StreamDate(Date())) {
        stopwatch = Stopwatch(clock: clock)
        self.origin = origin
    }

    /// The date now.
    public var now: StreamDate { origin + MediaTime(stopwatch.elapsed) }
}
