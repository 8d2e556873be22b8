import Foundation
import PlaytraceCore

/// One element's attributes, read as the types the MPD schema gives them; a value that cannot be read is reported
/// (with the attribute's name and its text, escaped) and read as absent.
struct AttributeValues {
    private let attributes: [String: String]
    private let line: Int
    private let report: (String) -> Void

    init(_ attributes: [String: String], line: Int, report: @escaping (String) -> Void) {
        self.attributes = attributes
        self.line = line
        self.report = report
    }

    func string(_ name: String) -> String? { attributes[name] }

    /// A value the element cannot do without: its absence is reported.
    func required(_ name: String) -> String? {
        guard let value = attributes[name], !value.isEmpty else {
            report("@\(name) is missing: the element is ignored")
            return nil
        }
        return value
    }

    private func invalid(_ name: String, _ value: String, _ what: String) {
        report("@\(name)=\"\(value.prefix(64))\" is not \(what): ignored")
    }

    /// An integer of any sign (`S@r`).
    func integer(_ name: String) -> Int64? {
        guard let value = attributes[name] else { return nil }
        guard let number = Int64(value.trimmingCharacters(in: .whitespaces)) else {
            invalid(name, value, "an integer within 64 bits")
            return nil
        }
        return number
    }

    /// An integer of 0 or more (`xs:unsignedInt`, `xs:unsignedLong` within 63 bits).
    func count(_ name: String) -> Int64? {
        guard let number = integer(name) else { return nil }
        guard number >= 0 else {
            invalid(name, attributes[name] ?? "", "0 or more")
            return nil
        }
        return number
    }

    /// An integer of 1 or more (a timescale, a duration in ticks, a width).
    func positive(_ name: String) -> Int64? {
        guard let number = integer(name) else { return nil }
        guard number > 0 else {
            invalid(name, attributes[name] ?? "", "1 or more")
            return nil
        }
        return number
    }

    /// A decimal of 0 or more, or `INF` (`@availabilityTimeOffset`).
    func offset(_ name: String) -> Double? {
        guard let value = attributes[name] else { return nil }
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if trimmed == "INF" { return .infinity }
        guard let number = Double(trimmed), number.isFinite, number >= 0 else {
            invalid(name, value, "a number of 0 or more")
            return nil
        }
        return number
    }

    func boolean(_ name: String) -> Bool? {
        switch attributes[name]?.trimmingCharacters(in: .whitespaces) {
        case nil: return nil
        case "true", "1": return true
        case "false", "0": return false
        case let other?:
            invalid(name, other, "a boolean")
            return nil
        }
    }

    /// An `xs:duration` of 0 or more.
    func duration(_ name: String) -> Duration? {
        guard let value = attributes[name] else { return nil }
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

    /// An `xs:dateTime`; one without a zone is read as UTC, and said.
    func date(_ name: String) -> StreamDate? {
        guard let value = attributes[name] else { return nil }
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let date = try? StreamDate(iso8601: trimmed) { return date }
        if let last = trimmed.last, last.isNumber, let date = try? StreamDate(iso8601: trimmed + "Z") {
            report("@\(name)=\"\(trimmed.prefix(64))\" has no time zone: read as UTC")
            return date
        }
        invalid(name, value, "an xs:dateTime")
        return nil
    }

    func byteRange(_ name: String) -> ByteRange? {
        guard let value = attributes[name] else { return nil }
        guard let range = ByteRange(value) else {
            invalid(name, value, "a byte range first-last")
            return nil
        }
        return range
    }
}
