// A reader of InfluxDB's line protocol written from its specification (how InfluxDB 1.x reads a line back), and
// what a point written by LineProtocolEncoder must read as. The encoder's tests and its fuzz target
// (Fuzz/LineProtocolEncoderFuzzer.swift, which compiles this file in) check the encoder against it.
import PlaytraceBackends
import PlaytraceTelemetry

/// A point as InfluxDB reads it: escapes undone, tags and fields as sorted lists (their order does not matter).
struct ReadPoint: Equatable, CustomStringConvertible {
    enum Value: Equatable, Comparable {
        case integer(Int64)
        case float(Double)
        case boolean(Bool)
        case string(String)

        static func < (lhs: Value, rhs: Value) -> Bool { "\(lhs)" < "\(rhs)" }
    }

    struct Pair<V: Equatable & Comparable>: Equatable, Comparable {
        let key: String
        let value: V

        static func < (lhs: Pair, rhs: Pair) -> Bool { (lhs.key, lhs.value) < (rhs.key, rhs.value) }
    }

    var measurement: String
    var tags: [Pair<String>]
    var fields: [Pair<Value>]
    var timestamp: Int64

    var description: String { "\(measurement) \(tags.map { "\($0.key)=\($0.value)" }) \(fields.map { "\($0.key)=\($0.value)" }) \(timestamp)" }

    /// Reads one line (its line feed included); `nil` when it is not one point of the protocol.
    init?(line: [UInt8]) {
        var reader = Reader(bytes: line)
        guard let measurement = reader.text(until: [.comma, .space], unescaping: [.comma, .space]) else { return nil }
        self.measurement = measurement
        tags = []
        while reader.next == .comma {
            reader.index += 1
            guard let key = reader.text(until: [.equals], unescaping: [.comma, .space, .equals]), reader.take(.equals),
                  let value = reader.text(until: [.comma, .space], unescaping: [.comma, .space, .equals]),
                  !key.isEmpty, !value.isEmpty
            else { return nil }
            tags.append(Pair(key: key, value: value))
        }
        guard reader.take(.space) else { return nil }
        fields = []
        repeat {
            guard let key = reader.text(until: [.equals], unescaping: [.comma, .space, .equals]), !key.isEmpty,
                  reader.take(.equals), let value = reader.fieldValue()
            else { return nil }
            fields.append(Pair(key: key, value: value))
        } while reader.take(.comma)
        guard reader.take(.space), let digits = reader.text(until: [.lineFeed], unescaping: []),
              let timestamp = Int64(digits), reader.take(.lineFeed), reader.index == line.count
        else { return nil }
        self.timestamp = timestamp
        tags.sort()
        fields.sort()
    }

    init(measurement: String, tags: [Pair<String>], fields: [Pair<Value>], timestamp: Int64) {
        self.measurement = measurement
        self.tags = tags.sorted()
        self.fields = fields.sorted()
        self.timestamp = timestamp
    }

    /// What an event written by `encoder` must read as: each attribute as `Event.forEachAttribute` gives it, a tag
    /// or a field as the encoder's choice says, with what the protocol cannot carry changed as the encoder
    /// documents (line breaks in names and tags, backslashes that would escape what follows, tags that would be
    /// empty, non-finite floats).
    static func expected(_ event: Event, encoder: LineProtocolEncoder, timestamp: Int64) -> ReadPoint {
        // A tag or key that would be empty is left out (InfluxDB refuses the line).
        let action = stored(event.action.name, lineBreak: " ", escaped: ", =")
        var tags = action.isEmpty ? [] : [Pair(key: "action", value: action)]
        var fields: [Pair<Value>] = []
        event.forEachAttribute { attribute, value in
            let key = stored(attribute.name, lineBreak: " ", escaped: ", =")
            guard !key.isEmpty else { return }
            if encoder.tagAttributes.contains(attribute) {
                let text = switch value {
                case .string(let string): string
                case .int(let integer): String(integer)
                case .bool(let flag): flag ? "true" : "false"
                case .double(let number): number.description
                }
                let storedText = stored(text, lineBreak: " ", escaped: ", =")
                if !storedText.isEmpty { tags.append(Pair(key: key, value: storedText)) }
            } else {
                let read: Value = switch value {
                case .string(let string): .string(string)
                case .int(let integer): .integer(Int64(integer))
                case .bool(let flag): .boolean(flag)
                case .double(let number): .float(number.isFinite ? number : 0)
                }
                fields.append(Pair(key: key, value: read))
            }
        }
        if fields.isEmpty { fields = [Pair(key: "count", value: .integer(1))] }
        return ReadPoint(measurement: stored(encoder.eventMeasurement, lineBreak: "_", escaped: ", "), tags: tags,
                         fields: fields, timestamp: timestamp)
    }

    /// Text of a name or tag as InfluxDB keeps it: line breaks and tabs replaced, and each run of backslashes that
    /// ends the text or comes right before an escaped byte left out.
    static func stored(_ text: String, lineBreak: Character, escaped: String) -> String {
        let characters = Array(text.unicodeScalars)
        func startsWithEscape(_ scalar: Unicode.Scalar) -> Bool {
            "\n\r\t".unicodeScalars.contains(scalar) ? lineBreak == " " : escaped.unicodeScalars.contains(scalar)
        }
        var result = ""
        var index = 0
        while index < characters.count {
            if characters[index] == "\\" {
                var end = index
                while end < characters.count, characters[end] == "\\" { end += 1 }
                if end == characters.count || startsWithEscape(characters[end]) {
                    index = end
                    continue
                }
                result.unicodeScalars.append(contentsOf: characters[index..<end])
                index = end
                continue
            }
            if "\n\r\t".unicodeScalars.contains(characters[index]) {
                result.append(lineBreak)
            } else {
                result.unicodeScalars.append(characters[index])
            }
            index += 1
        }
        return result
    }
}

private extension UInt8 {
    static let comma = UInt8(ascii: ","), space = UInt8(ascii: " "), equals = UInt8(ascii: "=")
    static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), lineFeed = UInt8(ascii: "\n")
}

/// Walks a line's bytes.
private struct Reader {
    let bytes: [UInt8]
    var index = 0

    var next: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func take(_ byte: UInt8) -> Bool {
        guard next == byte else { return false }
        index += 1
        return true
    }

    /// Text up to an unescaped byte of `stops` (not taken); a backslash before a byte of `unescaping` is dropped,
    /// any other backslash is kept as it is. `nil` when the line ends first.
    mutating func text(until stops: [UInt8], unescaping: [UInt8]) -> String? {
        var text: [UInt8] = []
        while let byte = next {
            if stops.contains(byte) { return String(decoding: text, as: UTF8.self) }
            if byte == .backslash, index + 1 < bytes.count, unescaping.contains(bytes[index + 1]) {
                text.append(bytes[index + 1])
                index += 2
                continue
            }
            text.append(byte)
            index += 1
        }
        return nil
    }

    /// A field's value: a quoted string (`\"` and `\\` undone), an integer with `i`, a boolean or a float.
    mutating func fieldValue() -> ReadPoint.Value? {
        if take(.quote) {
            var text: [UInt8] = []
            while let byte = next {
                index += 1
                if byte == .quote { return .string(String(decoding: text, as: UTF8.self)) }
                if byte == .backslash, let escaped = next, escaped == .quote || escaped == .backslash {
                    text.append(escaped)
                    index += 1
                } else {
                    text.append(byte)
                }
            }
            return nil
        }
        guard let raw = text(until: [.comma, .space], unescaping: []), !raw.isEmpty else { return nil }
        if raw.hasSuffix("i") { return Int64(raw.dropLast()).map { .integer($0) } }
        if raw == "true" { return .boolean(true) }
        if raw == "false" { return .boolean(false) }
        return Double(raw).map { .float($0) }
    }
}
