import PlaytraceCore
import PlaytraceTelemetry

/// Escaping for the line protocol: measurement names, tag keys and values, field keys and string fields.
extension LineProtocolEncoder {
    /// Writes text, escaping the bytes `needsEscape` picks with a backslash and writing line breaks as `newline`
    /// (nil: kept). Text without such bytes (the usual case) is copied in one go.
    @inline(__always)
    static func writeEscaped(_ text: String, to line: inout LineWriter, newline: StaticString?,
                                     special: SpecialBytes, needsEscape: (UInt8) -> Bool) {
        var text = text
        text.withUTF8Span { writeEscaped($0, to: &line, newline: newline, special: special, needsEscape: needsEscape) }
    }

    @inline(__always)
    static func writeEscaped(_ bytes: Span<UInt8>, to line: inout LineWriter,
                                     newline: StaticString?, special: SpecialBytes, needsEscape: (UInt8) -> Bool) {
        guard special.isAny(in: bytes) else {
            line.bytes(bytes)
            return
        }
        let backslash = UInt8(ascii: "\\")
        // Whether the byte is written with a backslash before it (an escaped byte, or a line break written as an
        // escaped space).
        func startsWithEscape(_ byte: UInt8) -> Bool {
            if isLineBreak(byte), let newline { return newline.utf8Start.pointee == backslash }
            return needsEscape(byte)
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            // In names and tags, InfluxDB reads a backslash as escaping whatever follows it, and never reads `\\`
            // back as one backslash: a run of backslashes right before an escape or at the end cannot be written.
            // It is left out (as Telegraf does for trailing ones); elsewhere backslashes are written as they are.
            if byte == backslash, !special.backslashIsEscaped {
                var end = index
                while end < bytes.count, bytes[end] == backslash { end += 1 }
                if end == bytes.count || startsWithEscape(bytes[end]) {
                    index = end
                    continue
                }
            }
            line.reserve(2)
            if let newline, isLineBreak(byte) {
                line.ascii(newline)
            } else {
                if needsEscape(byte) { line.byteInReserved(backslash) }
                line.byteInReserved(byte)
            }
            index += 1
        }
    }

    @inline(__always)
    static func isLineBreak(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D || byte == 0x09 }

    static func writeMeasurement(_ text: String, to line: inout LineWriter) {
        writeEscaped(text, to: &line, newline: "_", special: .measurement) {
            $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: " ")
        }
    }

    /// Tag keys, tag values and field keys.
    static func writeTagText(_ text: String, to line: inout LineWriter) {
        writeEscaped(text, to: &line, newline: "\\ ", special: .tag) {
            $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "=")
        }
    }

    static func writeField(of entry: borrowing AttributeList.Entry, to line: inout LineWriter) {
        switch entry.value {
        case .int(let value):
            line.integer(Int64(value))
            line.byte(UInt8(ascii: "i"))
        case .double(let value):
            writeFloat(value, to: &line)
        case .bool(let value):
            if value { line.ascii("true") } else { line.ascii("false") }
        case .string(let text):
            line.byte(UInt8(ascii: "\""))
            writeEscaped(text, to: &line, newline: nil, special: .fieldString) {
                $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\")
            }
            line.byte(UInt8(ascii: "\""))
        }
    }

    /// Floats: whole values as digits (InfluxDB reads `5` without `i` as a float), others in Swift's shortest
    /// round-trip form; non-finite values, which the line protocol cannot carry, as 0.
    static func writeFloat(_ value: Double, to line: inout LineWriter) {
        guard value.isFinite else {
            line.byte(UInt8(ascii: "0"))
            return
        }
        if let whole = wholeNumber(value) {
            line.integer(whole)
        } else {
            var text = value.description
            text.withUTF8 { line.bytes($0) }
        }
    }

    /// The value as an integer when it is a whole number below 10¹⁵ in magnitude (written without a fraction), else
    /// `nil` (NaN and infinities included). Converting and comparing back costs no call (`rounded()` is one to libm).
    @inline(__always)
    static func wholeNumber(_ value: Double) -> Int64? {
        guard abs(value) < 1e15 else { return nil }
        let whole = Int64(value)
        return Double(whole) == value ? whole : nil
    }

    /// Tag keys, tag values and field keys, escaped, appended to a buffer (names escaped once at start-up).
    static func appendTagText(_ text: String, into buffer: inout [UInt8]) {
        LineWriter.append(to: &buffer) { writeTagText(text, to: &$0) }
    }
}


/// The bytes that text of one kind cannot hold as they are (escaped, line breaks replaced, or backslashes that
/// would escape what follows), for a scan that costs a shift and a test per byte: bytes below 64 as bits, and the
/// backslash.
struct SpecialBytes {
    let low: UInt64
    /// Whether backslashes are escaped (`\\` in string fields) rather than written as they are where they can be.
    let backslashIsEscaped: Bool

    /// Line breaks and tabs, which measurements and tags cannot hold.
    private static let breaks: UInt64 = 1 << 0x0A | 1 << 0x0D | 1 << 0x09

    /// Measurement names: commas and spaces, line breaks, and backslashes.
    static let measurement = SpecialBytes(low: 1 << 0x2C | 1 << 0x20 | breaks, backslashIsEscaped: false)
    /// Tag keys, tag values and field keys: commas, spaces and equals signs, line breaks, and backslashes.
    static let tag = SpecialBytes(low: 1 << 0x2C | 1 << 0x20 | 1 << 0x3D | breaks, backslashIsEscaped: false)
    /// String field values: quotes and backslashes.
    static let fieldString = SpecialBytes(low: 1 << 0x22, backslashIsEscaped: true)

    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        byte < 64 ? low & (1 << UInt64(byte)) != 0 : byte == 0x5C
    }

    /// Whether any of `bytes` is one of these.
    @inline(__always)
    func isAny(in bytes: Span<UInt8>) -> Bool {
        for index in bytes.indices where contains(bytes[index]) { return true }
        return false
    }
}
