/// A position or a length on an item's media timeline, in seconds.
///
/// Media time is the playhead's clock: it advances with playback at the playback rate and stands still while
/// paused or stalled. It is kept apart from stream dates (``StreamDate``) and from wall time (an injected
/// `Clock`): each of the three has its own type so that they cannot be mixed up by accident.
///
/// ```swift
/// let segment = MediaTime(seconds: 6.006)
/// let playhead = MediaTime.zero + segment * 2
/// print(playhead)            // 00:00:12.012
/// ```
public struct MediaTime: Sendable, Hashable, Comparable, Codable, AdditiveArithmetic {
    /// The time in seconds.
    public var seconds: Double

    /// Creates a media time from a number of seconds.
    @inlinable public init(seconds: Double) { self.seconds = seconds }

    /// Creates a media time from a Swift `Duration`.
    @inlinable public init(_ duration: Duration) {
        let parts = duration.components
        self.seconds = Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }

    /// A time a document states, or `nil` when it is not finite or past ``maximumDocumentSeconds`` in magnitude
    /// (or negative, when `allowsNegative` is false).
    public init?(documentSeconds seconds: Double, allowsNegative: Bool = false) {
        guard seconds.isWithin(magnitude: Self.maximumDocumentSeconds), allowsNegative || seconds >= 0 else { return nil }
        self.seconds = seconds
    }

    /// The media time at the start of an item.
    public static let zero = MediaTime(seconds: 0)

    /// This time as a Swift `Duration` (rounded to the nanosecond; clamped to about ±292 years, NaN as zero).
    public var duration: Duration { .saturating(seconds: seconds) }

    /// The largest time, in seconds, that a document (a playlist, ad metadata, VAST) may state: about 31 years.
    ///
    /// Parsers list a time or a duration past it as a problem of the document at its line, rather than keep a
    /// number that no media has and that sums and conversions further on could not hold.
    public static let maximumDocumentSeconds: Double = 1_000_000_000

    /// Whether the time is a finite number.
    @inlinable public var isFinite: Bool { seconds.isFinite }

    @inlinable public static func + (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        MediaTime(seconds: lhs.seconds + rhs.seconds)
    }

    @inlinable public static func - (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        MediaTime(seconds: lhs.seconds - rhs.seconds)
    }

    @inlinable public static func * (lhs: MediaTime, rhs: Double) -> MediaTime {
        MediaTime(seconds: lhs.seconds * rhs)
    }

    @inlinable public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool { lhs.seconds < rhs.seconds }

    /// The time to the nearest millisecond, as `HH:MM:SS.mmm` (VAST's time format): the rounding of every time
    /// Playtrace prints, so that a break computed from dates at 21.5999… s reads 21.600 as `inspect` says.
    public var timecode: String {
        guard seconds.isFinite else { return seconds.isNaN ? "NaN" : (seconds < 0 ? "-inf" : "inf") }
        let totalMilliseconds = Int64(saturating: (abs(seconds) * 1000).rounded(.toNearestOrAwayFromZero))
        let sign = seconds < 0 && totalMilliseconds > 0 ? "-" : ""
        let ms = totalMilliseconds % 1000
        let s = (totalMilliseconds / 1000) % 60
        let m = (totalMilliseconds / 60_000) % 60
        let h = totalMilliseconds / 3_600_000
        return sign + pad(h, 2) + ":" + pad(m, 2) + ":" + pad(s, 2) + "." + pad(ms, 3)
    }
}

extension MediaTime: CustomStringConvertible {
    public var description: String { timecode }
}

extension MediaTime: ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    public init(floatLiteral value: Double) { self.init(seconds: value) }
    public init(integerLiteral value: Int) { self.init(seconds: Double(value)) }
}

@usableFromInline func pad(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}
