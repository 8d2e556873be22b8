public import PlaytraceCore

/// A position or a length on the ad timeline, in milliseconds, as ad metadata states it.
///
/// What a position counts from is the metadata's ``AdTimeline``: since 1970 when the metadata is keyed on the
/// stream's program date-time (Harmonic, SSAI live), from the start of the content or session otherwise
/// (MediaTailor, VAST). Ad metadata speaks milliseconds (Harmonic's `startTime` and `duration`, `keepPodsForMs`);
/// this type keeps them apart from media time in seconds (`MediaTime`) and from wall time (`Duration`).
///
/// ```swift
/// let start: AdTime = 1_700_000_000_000        // a program date-time, in milliseconds
/// let end = start + AdTime(MediaTime(seconds: 30))
/// print(end.milliseconds - start.milliseconds)  // 30000.0
/// ```
public struct AdTime: Sendable, Hashable, Comparable, AdditiveArithmetic, CustomStringConvertible {
    /// The time in milliseconds.
    public var milliseconds: Double

    @inlinable public init(milliseconds: Double) { self.milliseconds = milliseconds }

    /// A media time (seconds) on the ad timeline.
    @inlinable public init(_ time: MediaTime) { milliseconds = time.seconds * 1000 }

    /// A stream date on a program-date-time ad timeline.
    @inlinable public init(_ date: StreamDate) { milliseconds = date.millisecondsSince1970 }

    public static let zero = AdTime(milliseconds: 0)

    /// The time in seconds (a macro's playhead, a media time).
    @inlinable public var seconds: Double { milliseconds / 1000 }

    /// The time as a media time (seconds).
    @inlinable public var mediaTime: MediaTime { MediaTime(seconds: seconds) }

    /// The time as a stream date (on a program-date-time timeline).
    @inlinable public var streamDate: StreamDate { StreamDate(millisecondsSince1970: milliseconds) }

    /// The distance between two times, whatever their order.
    @inlinable public func distance(to other: AdTime) -> AdTime { AdTime(milliseconds: abs(other.milliseconds - milliseconds)) }

    @inlinable public var isFinite: Bool { milliseconds.isFinite }

    @inlinable public static func + (lhs: AdTime, rhs: AdTime) -> AdTime { AdTime(milliseconds: lhs.milliseconds + rhs.milliseconds) }
    @inlinable public static func - (lhs: AdTime, rhs: AdTime) -> AdTime { AdTime(milliseconds: lhs.milliseconds - rhs.milliseconds) }
    @inlinable public static func * (lhs: AdTime, rhs: Double) -> AdTime { AdTime(milliseconds: lhs.milliseconds * rhs) }
    @inlinable public static func / (lhs: AdTime, rhs: Double) -> AdTime { AdTime(milliseconds: lhs.milliseconds / rhs) }
    @inlinable public static func < (lhs: AdTime, rhs: AdTime) -> Bool { lhs.milliseconds < rhs.milliseconds }

    /// `12345.0 ms`.
    public var description: String { "\(milliseconds) ms" }
}

extension AdTime: ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    /// A literal is milliseconds.
    public init(floatLiteral value: Double) { milliseconds = value }
    public init(integerLiteral value: Int) { milliseconds = Double(value) }
}
