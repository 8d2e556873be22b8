public import Foundation

/// A wall-clock date on a stream's timeline, as carried by `EXT-X-PROGRAM-DATE-TIME` and `EXT-X-DATERANGE`.
///
/// Stream dates are what SSAI ad metadata is keyed on. They are stored as seconds since 1970 (UTC) with
/// sub-millisecond precision, and kept apart from media time (``MediaTime``) and from the monotonic clock that
/// measures durations.
///
/// ```swift
/// let date = try StreamDate(iso8601: "2026-11-21T10:00:00.000Z")
/// let later = date + MediaTime(seconds: 6)
/// print(later)   // 2026-11-21T10:00:06.000Z
/// ```
public struct StreamDate: Sendable, Hashable, Comparable, Codable {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var secondsSince1970: Double

    /// Creates a stream date from seconds since 1970 (UTC).
    @inlinable public init(secondsSince1970: Double) { self.secondsSince1970 = secondsSince1970 }

    /// Creates a stream date from milliseconds since 1970 (UTC), the unit of SSAI metadata.
    @inlinable public init(millisecondsSince1970: Double) { self.secondsSince1970 = millisecondsSince1970 / 1000 }

    /// Creates a stream date from a Foundation date.
    public init(_ date: Date) { self.secondsSince1970 = date.timeIntervalSince1970 }

    /// Parses an ISO 8601 / RFC 3339 date-time such as `2026-11-21T10:00:00.123+01:00`.
    ///
    /// - Throws: ``ISO8601DateError`` when the text is not a complete date-time.
    public init(iso8601 text: some StringProtocol) throws(ISO8601DateError) {
        self = try ISO8601DateParser.parse(text)
    }

    /// Parses an ISO 8601 date-time from UTF-8 bytes without allocating; `nil` when it is not one.
    ///
    /// This is the fast path that playlist parsers use for one program-date-time per segment.
    public init?(iso8601UTF8 bytes: Span<UInt8>) {
        guard let date = ISO8601DateParser.parse(bytes) else { return nil }
        self = date
    }

    /// The earliest date ISO 8601's four-digit years write: 0000-01-01T00:00:00Z.
    public static let earliestWritable = StreamDate(secondsSince1970: -62_167_219_200)
    /// The latest date ISO 8601's four-digit years write: 9999-12-31T23:59:59.999Z.
    public static let latestWritable = StreamDate(secondsSince1970: 253_402_300_799.999)

    /// Whether the date falls between ``earliestWritable`` and ``latestWritable``: one that ISO 8601 text (and the
    /// JSON Schemas' `date-time`) can hold. A document's date past them is a problem of the document.
    public var isWritable: Bool {
        secondsSince1970 >= Self.earliestWritable.secondsSince1970 && secondsSince1970 <= Self.latestWritable.secondsSince1970
    }

    /// The date as milliseconds since 1970.
    @inlinable public var millisecondsSince1970: Double { secondsSince1970 * 1000 }

    /// The date as a Foundation date.
    public var date: Date { Date(timeIntervalSince1970: secondsSince1970) }

    /// The date in ISO 8601 form, UTC, with milliseconds: `2026-11-21T10:00:00.123Z`.
    public var iso8601: String { ISO8601DateFormatting.format(self) }

    /// The date as ISO 8601 text rounded to milliseconds (`2026-11-21T10:00:06.600Z`), for people: a date
    /// computed from a start and a duration carries the binary noise of their sum (`06.600999832Z` in
    /// ``iso8601``, which keeps every digit so that the text reads back as the same value).
    public var iso8601Milliseconds: String {
        guard secondsSince1970.isFinite, abs(secondsSince1970) < 1e15 else { return iso8601 }
        return ISO8601DateFormatting.format(StreamDate(secondsSince1970: (secondsSince1970 * 1_000).rounded() / 1_000))
    }

    /// ``iso8601Milliseconds`` for a date that ISO 8601 can write (``isWritable``); `nil` for one it cannot.
    public var writableISO8601Milliseconds: String? { isWritable ? iso8601Milliseconds : nil }

    @inlinable public static func < (lhs: StreamDate, rhs: StreamDate) -> Bool {
        lhs.secondsSince1970 < rhs.secondsSince1970
    }

    /// The date moved forward by a media-time offset.
    @inlinable public static func + (lhs: StreamDate, rhs: MediaTime) -> StreamDate {
        StreamDate(secondsSince1970: lhs.secondsSince1970 + rhs.seconds)
    }

    /// The date moved forward by a clock duration (a wall clock's date, some time later).
    @inlinable public static func + (lhs: StreamDate, rhs: Duration) -> StreamDate {
        StreamDate(secondsSince1970: lhs.secondsSince1970 + rhs.seconds)
    }

    /// The date moved backward by a media-time offset.
    @inlinable public static func - (lhs: StreamDate, rhs: MediaTime) -> StreamDate {
        StreamDate(secondsSince1970: lhs.secondsSince1970 - rhs.seconds)
    }

    /// The time between two dates.
    @inlinable public static func - (lhs: StreamDate, rhs: StreamDate) -> MediaTime {
        MediaTime(seconds: lhs.secondsSince1970 - rhs.secondsSince1970)
    }
}

extension StreamDate: CustomStringConvertible {
    public var description: String { iso8601 }
}
