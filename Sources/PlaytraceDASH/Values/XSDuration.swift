/// An `xs:duration` of an MPD (`PT1H2M3.5S`, `P1DT2H`), read as the DASH-IF timing model reads it: a fixed
/// calendar, where a minute is 60 s, an hour 60 minutes, a day 24 hours, a month 30 days and a year 12 months.
///
/// ```swift
/// let duration = try XSDuration.parse("PT1M30.5S")   // .seconds(90.5)
/// ```
///
/// Every number is checked: a component too large for 64-bit seconds is an error, not a wrap; digits of a fraction
/// past the attosecond are ignored. The text is read once, in linear time.
public enum XSDuration {
    /// Why a duration could not be read.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        public var text: String
        public var reason: String
        public var description: String { "\"\(text)\" is not an xs:duration: \(reason)" }
    }

    /// The longest text read: longer is an error (no real duration comes close).
    public static let maximumLength = 256

    /// Reads a duration; a leading `-` gives a negative one (the caller decides whether it may be).
    public static func parse(_ text: String) throws(ParseError) -> Duration {
        let bytes = Array(text.utf8)
        func failure(_ reason: String) -> ParseError { ParseError(text: String(text.prefix(64)), reason: reason) }
        guard bytes.count <= maximumLength else { throw failure("longer than \(maximumLength) characters") }
        var index = 0
        // Whitespace around the value is collapsed by XML Schema's rules for this type.
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
            index += 1
        }
        var end = bytes.count
        while end > index, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 || bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D {
            end -= 1
        }
        var negative = false
        if index < end, bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        guard index < end, bytes[index] == UInt8(ascii: "P") else { throw failure("it does not begin with P") }
        index += 1
        var seconds: Int64 = 0
        var attoseconds: Int64 = 0
        var inTime = false
        var components = 0
        var timeComponents = 0
        // Designators in the order they may come, each at most once.
        var lastRank = -1
        while index < end {
            if bytes[index] == UInt8(ascii: "T") {
                guard !inTime else { throw failure("a second T") }
                inTime = true
                index += 1
                lastRank = 3
                continue
            }
            var whole: Int64 = 0
            var digits = 0
            while index < end, let digit = Self.digit(bytes[index]) {
                let (times10, overflowA) = whole.multipliedReportingOverflow(by: 10)
                let (sum, overflowB) = times10.addingReportingOverflow(Int64(digit))
                guard !overflowA, !overflowB else { throw failure("a number too large") }
                whole = sum
                digits += 1
                index += 1
            }
            var fraction: Int64 = 0
            var hasFraction = false
            if index < end, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",") {
                hasFraction = true
                index += 1
                var scale: Int64 = 100_000_000_000_000_000   // 10^17: the first digit's attoseconds
                var fractionDigits = 0
                while index < end, let digit = Self.digit(bytes[index]) {
                    fraction += Int64(digit) * scale
                    scale /= 10
                    fractionDigits += 1
                    index += 1
                }
                guard fractionDigits > 0 else { throw failure("a decimal point without digits") }
            }
            guard digits > 0 else { throw failure("a designator without a number") }
            guard index < end else { throw failure("a number without a designator") }
            let designator = bytes[index]
            index += 1
            let rank: Int
            let unit: Int64
            switch (designator, inTime) {
            case (UInt8(ascii: "Y"), false): (rank, unit) = (0, 360 * 86_400)
            case (UInt8(ascii: "M"), false): (rank, unit) = (1, 30 * 86_400)
            case (UInt8(ascii: "D"), false): (rank, unit) = (2, 86_400)
            case (UInt8(ascii: "H"), true): (rank, unit) = (4, 3_600)
            case (UInt8(ascii: "M"), true): (rank, unit) = (5, 60)
            case (UInt8(ascii: "S"), true): (rank, unit) = (6, 1)
            default: throw failure("an unexpected designator '\(Character(Unicode.Scalar(designator)))'")
            }
            guard rank > lastRank else { throw failure("designators out of order or repeated") }
            guard !hasFraction || rank == 6 else { throw failure("a fraction on a component other than seconds") }
            lastRank = rank
            components += 1
            if inTime { timeComponents += 1 }
            let (product, overflowA) = whole.multipliedReportingOverflow(by: unit)
            let (sum, overflowB) = seconds.addingReportingOverflow(product)
            guard !overflowA, !overflowB else { throw failure("a duration too long") }
            seconds = sum
            if hasFraction { attoseconds = fraction }
        }
        guard components > 0 else { throw failure("no component") }
        guard !inTime || timeComponents > 0 else { throw failure("a T without a time component") }
        let duration = Duration(secondsComponent: seconds, attosecondsComponent: attoseconds)
        return negative ? .zero - duration : duration
    }

    private static func digit(_ byte: UInt8) -> Int? {
        (0x30...0x39).contains(byte) ? Int(byte - 0x30) : nil
    }
}
