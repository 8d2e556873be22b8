import PlaytraceCore
public import PlaytraceTelemetry

/// The line protocol's text: measurement names, keys and tag values, string fields and numbers, appended to bytes.
///
/// Escaping is what makes a line read back as it was meant, and what keeps one odd value from getting a whole batch
/// refused:
/// - measurement names escape commas and spaces; keys and tag values commas, spaces and equals signs; string fields
///   quotes and backslashes;
/// - line breaks and tabs, which measurements and tags cannot hold, become `_` in measurements and an escaped space
///   in keys and tag values; a string field keeps them (InfluxDB stores them as they are inside the quotes);
/// - in names and tag values InfluxDB reads a backslash as escaping the next byte and never reads `\\` back as one
///   backslash, so a run of backslashes at the end or right before an escaped byte cannot be written at all: it is
///   left out (as Telegraf does for trailing ones). Other backslashes are written, and read back, as they are. A key
///   or tag value that would be empty is not written (``isWritableKey(_:)``);
/// - floats are digits when whole (InfluxDB reads `5` without `i` as a float), Swift's shortest round-trip form
///   otherwise, and 0 when not finite (the protocol cannot carry NaN or infinities).
public enum LineProtocolText {
    /// The kinds of text, each with the bytes it cannot hold as they are.
    enum Kind {
        case measurement, key, stringField

        /// For each byte value: whether the text needs more than a copy when it holds it (an escape, a line break
        /// replaced, a backslash looked at).
        var special: [Bool] {
            switch self {
            case .measurement: LineProtocolText.measurementSpecial
            case .key: LineProtocolText.keySpecial
            case .stringField: LineProtocolText.stringSpecial
            }
        }

        func needsEscape(_ byte: UInt8) -> Bool {
            switch self {
            case .measurement: byte == UInt8(ascii: ",") || byte == UInt8(ascii: " ")
            case .key: byte == UInt8(ascii: ",") || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "=")
            case .stringField: byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
            }
        }

        /// What a line break or tab becomes; `nil`: kept.
        var lineBreak: StaticString? {
            switch self {
            case .measurement: "_"
            case .key: "\\ "
            case .stringField: nil
            }
        }
    }

    private static func table(_ kind: Kind, breaks: Bool) -> [Bool] {
        (0...255).map { value in
            let byte = UInt8(value)
            return kind.needsEscape(byte) || byte == UInt8(ascii: "\\") || (breaks && isLineBreak(byte))
        }
    }

    private static let measurementSpecial = table(.measurement, breaks: true)
    private static let keySpecial = table(.key, breaks: true)
    private static let stringSpecial = table(.stringField, breaks: false)

    /// Whether text can be a key or a tag value: InfluxDB refuses empty ones, and backslashes alone write as nothing.
    public static func isWritableKey(_ text: String) -> Bool {
        text.utf8.contains { $0 != UInt8(ascii: "\\") }
    }

    public static func appendMeasurement(_ text: String, to buffer: inout [UInt8]) {
        append(text, as: .measurement, to: &buffer)
    }

    /// Tag keys, tag values and field keys.
    public static func appendKey(_ text: String, to buffer: inout [UInt8]) {
        append(text, as: .key, to: &buffer)
    }

    /// A field's value: `12i`, a float, `true` or `false`, or a quoted string.
    public static func appendField(_ value: AttributeValue, to buffer: inout [UInt8]) {
        switch value {
        case .int(let integer):
            appendInteger(Int64(integer), to: &buffer)
            buffer.append(UInt8(ascii: "i"))
        case .double(let number):
            appendFloat(number, to: &buffer)
        case .bool(let flag):
            buffer.append(contentsOf: (flag ? "true" : "false").utf8)
        case .string(let text):
            buffer.append(UInt8(ascii: "\""))
            append(text, as: .stringField, to: &buffer)
            buffer.append(UInt8(ascii: "\""))
        }
    }

    /// An integer's digits, written from the last into a fixed array on the stack, then copied.
    public static func appendInteger(_ value: Int64, to buffer: inout [UInt8]) {
        var digits = InlineArray<20, UInt8>(repeating: 0)
        var magnitude = value.magnitude
        var start = 20
        repeat {
            start -= 1
            digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        digits.span.extracting(start..<20).append(to: &buffer)
    }

    public static func appendFloat(_ value: Double, to buffer: inout [UInt8]) {
        if let whole = wholeNumber(value) {
            appendInteger(whole, to: &buffer)
        } else if value.isFinite {
            buffer.append(contentsOf: value.description.utf8)
        } else {
            buffer.append(UInt8(ascii: "0"))
        }
    }

    /// The value as an integer when it is a whole number below 10¹⁵ in magnitude (written without a fraction), else
    /// `nil` (NaN and infinities included).
    static func wholeNumber(_ value: Double) -> Int64? {
        guard abs(value) < 1e15 else { return nil }
        let whole = Int64(value)
        return Double(whole) == value ? whole : nil
    }

    private static func isLineBreak(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D || byte == 0x09 }

    static func append(_ text: String, as kind: Kind, to buffer: inout [UInt8]) {
        var text = text
        text.withUTF8Span { bytes in append(bytes, as: kind, to: &buffer) }
    }

    private static func append(_ bytes: Span<UInt8>, as kind: Kind, to buffer: inout [UInt8]) {
        let special = kind.special
        var isPlain = true
        for index in bytes.indices where special[Int(bytes[index])] {
            isPlain = false
            break
        }
        // Text with nothing to escape (the usual case) goes in one copy.
        guard !isPlain else { return bytes.append(to: &buffer) }
        let backslash = UInt8(ascii: "\\")
        let lineBreak = kind.lineBreak
        // Whether the byte is written with a backslash before it (an escaped byte, or a line break written as an
        // escaped space).
        func startsWithEscape(_ byte: UInt8) -> Bool {
            isLineBreak(byte) ? kind == .key : kind.needsEscape(byte)
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == backslash, kind != .stringField {
                // A run of backslashes before an escape or at the end cannot be written: left out. Otherwise the run
                // is written as it is (each backslash looked at once).
                var end = index
                while end < bytes.count, bytes[end] == backslash { end += 1 }
                if end < bytes.count, !startsWithEscape(bytes[end]) {
                    buffer.append(contentsOf: repeatElement(backslash, count: end - index))
                }
                index = end
                continue
            }
            if isLineBreak(byte), let lineBreak {
                lineBreak.withSpan { $0.append(to: &buffer) }
            } else {
                if kind.needsEscape(byte) { buffer.append(backslash) }
                buffer.append(byte)
            }
            index += 1
        }
    }
}
