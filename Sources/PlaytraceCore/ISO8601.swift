/// Why a text is not an ISO 8601 date-time.
public struct ISO8601DateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The offending text (cut to 64 characters).
    public var text: String

    public init(text: String) { self.text = text }

    public var description: String { "not an ISO 8601 date-time: \"\(text)\"" }
}

/// A fast, allocation-free parser for the RFC 3339 profile of ISO 8601 that HLS uses.
///
/// Accepts `YYYY-MM-DDThh:mm:ss[.fraction](Z|±hh:mm|±hhmm|±hh)`, also with a space or a lower-case `t` between
/// date and time and a lower-case `z`. Foundation's formatters are two orders of magnitude slower, which matters
/// for playlists with one program-date-time per segment.
enum ISO8601DateParser {
    static func parse(_ text: some StringProtocol) throws(ISO8601DateError) -> StreamDate {
        var copy = String(text)
        if let date = copy.withUTF8Span({ parse($0) }) { return date }
        throw ISO8601DateError(text: String(copy.prefix(64)))
    }

    /// Parses UTF-8 bytes; `nil` when they are not a date-time.
    static func parse(_ bytes: Span<UInt8>) -> StreamDate? {
        if let date = parseCommonLayout(bytes) { return date }
        return parseGeneral(bytes)
    }

    /// `YYYY-MM-DDThh:mm:ss.sssZ` exactly, the layout nearly every playlist uses, read at fixed offsets.
    @inline(__always)
    private static func parseCommonLayout(_ bytes: Span<UInt8>) -> StreamDate? {
        guard bytes.count == 24, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A,
              bytes[16] == 0x3A, bytes[19] == 0x2E, bytes[23] == 0x5A
        else { return nil }
        var digits = 0
        var valid = true
        @inline(__always) func digit(_ offset: Int) -> Int {
            let value = Int(bytes[offset]) &- 48
            valid = valid && value >= 0 && value <= 9
            return value
        }
        let year = digit(0) * 1000 + digit(1) * 100 + digit(2) * 10 + digit(3)
        let month = digit(5) * 10 + digit(6)
        let day = digit(8) * 10 + digit(9)
        let hour = digit(11) * 10 + digit(12)
        let minute = digit(14) * 10 + digit(15)
        let second = digit(17) * 10 + digit(18)
        digits = digit(20) * 100 + digit(21) * 10 + digit(22)
        guard valid, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour <= 23,
              minute <= 59, second <= 60
        else { return nil }
        let seconds = daysFromCivil(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
        return StreamDate(secondsSince1970: Double(seconds) + Double(digits) / 1000)
    }

    private static func parseGeneral(_ bytes: Span<UInt8>) -> StreamDate? {
        var index = 0
        let count = bytes.count
        func digits(_ n: Int) -> Int? {
            guard index + n <= count else { return nil }
            var value = 0
            for _ in 0..<n {
                let digit = Int(bytes[index]) &- 48
                guard digit >= 0 && digit <= 9 else { return nil }
                value = value * 10 + digit
                index += 1
            }
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard index < count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), expect(0x2D), let month = digits(2), expect(0x2D), let day = digits(2)
        else { return nil }
        guard index < count, bytes[index] == 0x54 || bytes[index] == 0x74 || bytes[index] == 0x20 else { return nil }
        index += 1
        guard let hour = digits(2), expect(0x3A), let minute = digits(2), expect(0x3A), let second = digits(2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour <= 23, minute <= 59, second <= 60
        else { return nil }
        var fraction = 0.0
        if index < count, bytes[index] == 0x2E || bytes[index] == 0x2C {
            index += 1
            var mantissa: UInt64 = 0
            var digits = 0
            var any = false
            while index < count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                if digits < 15 {  // finer than a femtosecond is below a Double's precision anyway
                    mantissa = mantissa * 10 + UInt64(bytes[index] - 0x30)
                    digits += 1
                }
                index += 1
                any = true
            }
            guard any else { return nil }
            fraction = Double(mantissa) / powersOfTen[digits]
        }
        guard index < count else { return nil }
        var offsetSeconds = 0
        switch bytes[index] {
        case 0x5A, 0x7A:
            index += 1
        case 0x2B, 0x2D:
            let sign = bytes[index] == 0x2D ? -1 : 1
            index += 1
            guard let offsetHours = digits(2), offsetHours <= 23 else { return nil }
            var offsetMinutes = 0
            if index < count {
                _ = expect(0x3A)
                guard let minutes = digits(2), minutes <= 59 else { return nil }
                offsetMinutes = minutes
            }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        default:
            return nil
        }
        guard index == count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        // A time-zone offset can carry 0000-01-01 or 9999-12-31 out of the four-digit years; such a date could
        // not be written back.
        guard seconds >= earliestSecond, seconds < latestSecond else { return nil }
        return StreamDate(secondsSince1970: Double(seconds) + fraction)
    }

    static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]
    static let earliestSecond = daysFromCivil(year: 0, month: 1, day: 1) * 86_400
    static let latestSecond = daysFromCivil(year: 10_000, month: 1, day: 1) * 86_400

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's civil-date algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil date of a number of days since 1970-01-01.
    static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

enum ISO8601DateFormatting {
    /// Formats with milliseconds, or with the fewest further digits (6, 9, 12, 15) that parse back to the
    /// identical value, so that a date read from a playlist is written back unchanged.
    static func format(_ date: StreamDate) -> String {
        let value = date.secondsSince1970
        guard value.isFinite, abs(value) < 1e15 else { return "invalid-date" }
        var whole = value.rounded(.down)
        var digits = 3
        var fraction: Int64 = 0
        for candidate in stride(from: 3, through: 15, by: 3) {
            let scale = ISO8601DateParser.powersOfTen[candidate]
            var scaled = ((value - whole) * scale).rounded()
            var base = whole
            if scaled >= scale {
                scaled -= scale
                base += 1
            }
            digits = candidate
            fraction = Int64(scaled)
            if base + scaled / scale == value {
                whole = base
                break
            }
            if candidate == 15 { whole = base }
        }
        var days = Int((whole / 86_400).rounded(.down))
        let remainder = Int64(whole - Double(days) * 86_400)
        if remainder < 0 { days -= 1 }
        let secondsOfDay = remainder < 0 ? remainder + 86_400 : remainder
        let (year, month, day) = ISO8601DateParser.civilFromDays(days)
        // The text written once into one buffer (the year as `pad` gives it, `-MM-DDTHH:MM:SS.`, the fraction's
        // digits, `Z`), where joining padded pieces made a string for each of them.
        let yearText = pad(Int64(year), 4)
        var text = [UInt8](repeating: 0, count: yearText.utf8.count + 17 + digits)
        var position = 0
        for byte in yearText.utf8 {
            text[position] = byte
            position += 1
        }
        func put(_ separator: Unicode.Scalar, _ value: Int64, width: Int) {
            text[position] = UInt8(ascii: separator)
            var rest = value
            for index in stride(from: position + width, through: position + 1, by: -1) {
                text[index] = UInt8(truncatingIfNeeded: 48 + rest % 10)
                rest /= 10
            }
            position += width + 1
        }
        put("-", Int64(month), width: 2)
        put("-", Int64(day), width: 2)
        put("T", secondsOfDay / 3600, width: 2)
        put(":", (secondsOfDay / 60) % 60, width: 2)
        put(":", secondsOfDay % 60, width: 2)
        put(".", fraction, width: digits)
        text[position] = UInt8(ascii: "Z")
        return String(decoding: text[...position], as: UTF8.self)
    }
}
