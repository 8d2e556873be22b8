/// A media timeline's ticks per second, and the exact conversions between its ticks and durations (ISO/IEC
/// 23009-1: MPD time = `Period@start` + (ticks − `@presentationTimeOffset`) / `@timescale`).
///
/// Ticks stay integers until the last step: a `$Time$` of 2^60 ticks converts without a rounding error, where a
/// `Double` would lose the last digits (AZ writes presentation times above 2^53).
///
/// ```swift
/// let timescale = Timescale(90_000)
/// timescale.duration(ofTicks: 180_000)          // 2 seconds
/// timescale.ticks(in: .milliseconds(1_500))    // 135_000
/// ```
public struct Timescale: Sendable, Hashable, CustomStringConvertible {
    /// Ticks per second, 1 or more.
    public let ticksPerSecond: Int64

    /// A timescale; one that is not positive reads as 1 (the schema's default).
    public init(_ ticksPerSecond: Int64?) {
        self.ticksPerSecond = max(ticksPerSecond ?? 1, 1)
    }

    /// `ticks` as a duration, exact to the attosecond.
    public func duration(ofTicks ticks: Int64) -> Duration {
        let attoseconds = Int128(ticks) * 1_000_000_000_000_000_000 / Int128(ticksPerSecond)
        return Duration(attoseconds: attoseconds)
    }

    /// The whole ticks in `duration` (rounded toward minus infinity), saturating at the bounds of `Int64`.
    public func ticks(in duration: Duration) -> Int64 {
        let scaled = duration.attoseconds * Int128(ticksPerSecond)
        let (quotient, remainder) = scaled.quotientAndRemainder(dividingBy: 1_000_000_000_000_000_000)
        let floored = remainder < 0 ? quotient - 1 : quotient
        return Int64(clamping: floored)
    }

    /// The whole ticks in `duration`, rounded toward plus infinity, saturating.
    public func ticksRoundingUp(in duration: Duration) -> Int64 {
        let scaled = duration.attoseconds * Int128(ticksPerSecond)
        let (quotient, remainder) = scaled.quotientAndRemainder(dividingBy: 1_000_000_000_000_000_000)
        return Int64(clamping: remainder > 0 ? quotient + 1 : quotient)
    }

    public var description: String { "\(ticksPerSecond)/s" }
}
