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
    private enum Kind {
        case measurement, key, stringField

        func needsEscape(_ byte: UInt8) -> Bool {
            switch self {
            case .measurement: byte == UInt8(ascii: ",") || byte == UInt8(ascii: " ")
            case .key: byte == UInt8(ascii: ",") || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "=")
            case .stringField: byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
            }
        }

        /// What a line break or tab becomes; `nil`: kept.
        var lineBreak: [UInt8]? {
            switch self {
            case .measurement: Array("_".utf8)
            case .key: Array("\\ ".utf8)
            case .stringField: nil
            }
        }
    }

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

    public static func appendInteger(_ value: Int64, to buffer: inout [UInt8]) {
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = buffer.count
        repeat {
            buffer.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        buffer[start...].reverse()
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

    private static func append(_ text: String, as kind: Kind, to buffer: inout [UInt8]) {
        let bytes = text.utf8
        let backslash = UInt8(ascii: "\\")
        // Text with nothing to escape (the usual case) goes in one copy.
        guard bytes.contains(where: { kind.needsEscape($0) || isLineBreak($0) || $0 == backslash }) else {
            buffer.append(contentsOf: bytes)
            return
        }
        let lineBreak = kind.lineBreak
        // Whether the byte is written with a backslash before it (an escaped byte, or a line break written as an
        // escaped space).
        func startsWithEscape(_ byte: UInt8) -> Bool {
            if isLineBreak(byte), let lineBreak { return lineBreak.first == backslash }
            return kind.needsEscape(byte)
        }
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == backslash, kind != .stringField {
                // A run of backslashes before an escape or at the end cannot be written: left out.
                var end = index
                while end != bytes.endIndex, bytes[end] == backslash { end = bytes.index(after: end) }
                // Otherwise the run is written as it is, in one go (each backslash looked at once).
                if end != bytes.endIndex, !startsWithEscape(bytes[end]) { buffer.append(contentsOf: bytes[index..<end]) }
                index = end
                continue
            }
            if isLineBreak(byte), let lineBreak {
                buffer.append(contentsOf: lineBreak)
            } else {
                if kind.needsEscape(byte) { buffer.append(backslash) }
                buffer.append(byte)
            }
            index = bytes.index(after: index)
        }
    }
}
