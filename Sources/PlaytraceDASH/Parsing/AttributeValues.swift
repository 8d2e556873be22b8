import Foundation
import PlaytraceCore

/// One element's attributes, read as the types the MPD schema gives them; a value that cannot be read is reported
/// (with the attribute's name and its text, escaped) and read as absent.
struct AttributeValues {
    private let attributes: [String: String]
    private let line: Int
    /// Where problems go (a reference, not a closure: one element costs no allocation beyond its attributes).
    private unowned let problems: MPDProblems

    init(_ attributes: [String: String], line: Int, problems: MPDProblems) {
        self.attributes = attributes
        self.line = line
        self.problems = problems
    }

    func string(_ name: String) -> String? { self[name] }

    /// The value of `name`, found by comparing names rather than hashing the one asked for: an element has a few
    /// attributes and is asked for a dozen it mostly does not have; a hash per question cost more than the parse of
    /// the element by `XMLParser`.
    private subscript(name: String) -> String? {
        guard attributes.count <= 32 else { return attributes[name] }
        // Most names differ in length: a comparison of counts (held inline) avoids most calls to `==`.
        let count = name.utf8.count
        for (key, value) in attributes where key.utf8.count == count && key == name { return value }
        return nil
    }

    /// A value the element cannot do without: its absence is reported.
    func required(_ name: String) -> String? {
        guard let value = self[name], !value.isEmpty else {
            problems.add("@\(name) is missing: the element is ignored", line: line)
            return nil
        }
        return value
    }

    private func invalid(_ name: String, _ value: String, _ what: String) {
        problems.add("@\(name)=\"\(value.prefix(64))\" is not \(what): ignored", line: line)
    }

    /// An integer of any sign (`S@r`). `written`: the attribute's value when the caller has it already.
    func integer(_ name: String, written: String? = nil) -> Int64? {
        guard let value = written ?? self[name] else { return nil }
        guard let number = Self.decimal(value) else {
            invalid(name, value, "an integer within 64 bits")
            return nil
        }
        return number
    }

    /// `[+-]digits` within 64 bits, white space around them allowed, read byte by byte (a timeline holds hundreds of
    /// thousands of them; the standard library's generic parse of a trimmed substring costs ten times more).
    static func decimal(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8Span { bytes -> Int64? in
            func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
            var start = 0, end = bytes.count
            while start < end, isSpace(bytes[start]) { start += 1 }
            while end > start, isSpace(bytes[end - 1]) { end -= 1 }
            let negative = start < end && bytes[start] == UInt8(ascii: "-")
            if start < end, negative || bytes[start] == UInt8(ascii: "+") { start += 1 }
            guard start < end else { return nil }
            var magnitude: UInt64 = 0
            for position in start..<end {
                let digit = bytes[position] &- 0x30
                guard digit < 10 else { return nil }
                let (times, overflowA) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, overflowB) = times.addingReportingOverflow(UInt64(digit))
                guard !overflowA, !overflowB else { return nil }
                magnitude = sum
            }
            if negative { return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil }
            return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
        }
    }

    /// An integer of 0 or more (`xs:unsignedInt`, `xs:unsignedLong` within 63 bits).
    func count(_ name: String, written: String? = nil) -> Int64? {
        guard let number = integer(name, written: written) else { return nil }
        guard number >= 0 else {
            invalid(name, written ?? self[name] ?? "", "0 or more")
            return nil
        }
        return number
    }

    /// An integer of 1 or more (a timescale, a duration in ticks, a width).
    func positive(_ name: String, written: String? = nil) -> Int64? {
        guard let number = integer(name, written: written) else { return nil }
        guard number > 0 else {
            invalid(name, written ?? self[name] ?? "", "1 or more")
            return nil
        }
        return number
    }

    /// A decimal of 0 or more, or `INF` (`@availabilityTimeOffset`).
    func offset(_ name: String) -> Double? {
        guard let value = self[name] else { return nil }
        let trimmed = String(value.trimmingXMLSpace)
        if trimmed == "INF" { return .infinity }
        guard let number = Double(trimmed), number.isFinite, number >= 0 else {
            invalid(name, value, "a number of 0 or more")
            return nil
        }
        return number
    }

    func boolean(_ name: String) -> Bool? {
        switch self[name]?.trimmingXMLSpace {
        case nil: return nil
        case "true", "1": return true
        case "false", "0": return false
        case let other?:
            invalid(name, String(other), "a boolean")
            return nil
        }
    }

    /// An `xs:duration` of 0 or more.
    func duration(_ name: String) -> Duration? {
        guard let value = self[name] else { return nil }
        do {
            let duration = try XSDuration.parse(value)
            guard duration >= .zero else {
                invalid(name, value, "a duration of 0 or more")
                return nil
            }
            return duration
        } catch {
            invalid(name, value, "an xs:duration")
            return nil
        }
    }

    /// An `xs:dateTime`; one without a zone is read as UTC, and said. `written`: the attribute's value when the
    /// caller has it already.
    func date(_ name: String, written: String? = nil) -> StreamDate? {
        guard let value = written ?? self[name] else { return nil }
        let trimmed = String(value.trimmingXMLSpace)
        if let date = try? StreamDate(iso8601: trimmed) { return date }
        if let last = trimmed.last, last.isNumber, let date = try? StreamDate(iso8601: trimmed + "Z") {
            problems.add("@\(name)=\"\(trimmed.prefix(64))\" has no time zone: read as UTC", line: line)
            return date
        }
        invalid(name, value, "an xs:dateTime")
        return nil
    }

    func byteRange(_ name: String) -> ByteRange? {
        guard let value = self[name] else { return nil }
        guard let range = ByteRange(value) else {
            invalid(name, value, "a byte range first-last")
            return nil
        }
        return range
    }
}

extension StringProtocol {
    /// Without XML white space (space, tab, CR, LF) at either end. Byte by byte: Foundation's
    /// `trimmingCharacters(in:)` goes through UTF-16 and took half of a timeline's parse.
    var trimmingXMLSpace: Substring {
        let text = Substring(self)
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        // Most values have nothing to trim.
        if let first = text.utf8.first, let last = text.utf8.last, !isSpace(first), !isSpace(last) { return text }
        guard let first = text.utf8.firstIndex(where: { !isSpace($0) }),
              let last = text.utf8.lastIndex(where: { !isSpace($0) }) else { return text[text.endIndex...] }
        return text[first...last]
    }
}
