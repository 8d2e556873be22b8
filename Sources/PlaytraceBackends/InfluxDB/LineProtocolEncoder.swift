public import PlaytraceCore
public import PlaytraceTelemetry

/// Writes events and metrics in InfluxDB's line protocol, with the dimensions as tags (so that queries can
/// `GROUP BY` session, content, engine…) and typed fields: integers with `i`, floats, booleans and quoted strings.
///
/// - Events go to one measurement (``eventMeasurement``), tagged with their action and dimensions; every other
///   attribute is a field.
/// - Metrics go to a measurement named after the metric, tagged with their dimensions and kind, with one field,
///   `value` (an integer for whole counters, a float otherwise).
///
/// Escaping follows the line protocol: commas, spaces and equals signs in keys and tag values, commas and spaces in
/// measurement names, quotes and backslashes in string fields. A string field keeps its line breaks (InfluxDB
/// stores them as they are inside the quotes — verified on InfluxDB 1.6); tag values, which cannot hold them, get
/// spaces instead.
///
/// ```swift
/// var buffer: [UInt8] = []
/// LineProtocolEncoder().encode(event, timestamp: nanoseconds, into: &buffer)
/// // events,action=Start,contentId=urn:1,engine=headless position=0i,title="The show",inPauseBlock=false 1800…
/// ```
public struct LineProtocolEncoder: Sendable {
    /// The measurement of events.
    public var eventMeasurement: String
    /// The attributes written as tags (the others are fields).
    public var tagAttributes: Set<Attribute> {
        didSet { tagMask = Self.mask(tagAttributes) }
    }
    /// The tag attributes with identifiers below 64, as bits (checked without hashing).
    private var tagMask: UInt64

    public init(eventMeasurement: String = "events", tagAttributes: Set<Attribute> = Set(Attribute.dimensions)) {
        self.eventMeasurement = eventMeasurement
        self.tagAttributes = tagAttributes
        tagMask = Self.mask(tagAttributes)
    }

    private static func mask(_ attributes: Set<Attribute>) -> UInt64 {
        attributes.reduce(0) { $1.id < 64 ? $0 | (1 << UInt64($1.id)) : $0 }
    }

    /// The escaped names of the standard attributes, by ``nameSlot(_:)`` (names never change: escape them once).
    private static let standardNames: [[UInt8]] = {
        var names = [[UInt8]](repeating: [], count: 128)
        for attribute in Attribute.allStandard {
            guard let slot = nameSlot(attribute.id) else { continue }
            var escaped: [UInt8] = []
            appendTagText(attribute.name, into: &escaped)
            names[slot] = escaped
        }
        return names
    }()

    @inline(__always)
    private static func nameSlot(_ id: UInt32) -> Int? {
        if id < 64 { return Int(id) }
        if id >= 100, id < 164 { return Int(id - 36) }
        return nil
    }

    @inline(__always)
    static func appendName(_ attribute: Attribute, into buffer: inout [UInt8]) {
        if let slot = nameSlot(attribute.id), !standardNames[slot].isEmpty {
            buffer.append(contentsOf: standardNames[slot])
        } else {
            appendTagText(attribute.name, into: &buffer)
        }
    }

    @inline(__always)
    private func isTag(_ attribute: Attribute) -> Bool {
        attribute.id < 64 ? tagMask & (1 << UInt64(attribute.id)) != 0 : tagAttributes.contains(attribute)
    }

    /// Nanoseconds since 1970 of a date.
    /// Whole seconds and the fraction are converted apart, so that the date's own precision is kept (a product
    /// in one double would round to 256 ns).
    public static func nanoseconds(_ date: StreamDate) -> Int64 {
        let seconds = date.secondsSince1970
        guard seconds.isFinite, abs(seconds) < 9e9 else { return 0 }
        let whole = seconds.rounded(.down)
        return Int64(whole) * 1_000_000_000 + Int64(((seconds - whole) * 1e9).rounded())
    }

    /// Appends an event's line (with its line feed).
    public func encode(_ event: Event, timestamp: Int64, into buffer: inout [UInt8]) {
        Self.appendMeasurement(eventMeasurement, into: &buffer)
        buffer.append(UInt8(ascii: ","))
        buffer.append(contentsOf: "action=".utf8)
        Self.appendTagText(event.action.name, into: &buffer)
        for entry in event.attributes where isTag(entry.attribute) {
            appendTag(entry, into: &buffer)
        }
        var separator = UInt8(ascii: " ")
        for entry in event.attributes where !isTag(entry.attribute) {
            buffer.append(separator)
            separator = UInt8(ascii: ",")
            Self.appendName(entry.attribute, into: &buffer)
            buffer.append(UInt8(ascii: "="))
            Self.appendField(entry.value, into: &buffer)
        }
        if separator == UInt8(ascii: " ") {
            // A point needs a field: an event with attributes all in tags gets a count.
            buffer.append(contentsOf: " count=1i".utf8)
        }
        buffer.append(UInt8(ascii: " "))
        Self.appendInteger(timestamp, into: &buffer)
        buffer.append(UInt8(ascii: "\n"))
    }

    /// Appends a metric's line (with its line feed).
    public func encode(_ metric: Metric, timestamp: Int64, into buffer: inout [UInt8]) {
        Self.appendMeasurement(metric.name, into: &buffer)
        for entry in metric.dimensions { appendTag(entry, into: &buffer) }
        buffer.append(contentsOf: ",kind=".utf8)
        buffer.append(contentsOf: metric.kind.rawValue.utf8)
        buffer.append(contentsOf: " value=".utf8)
        let value = metric.value
        if metric.kind == .counter, value.rounded() == value, abs(value) < 1e15 {
            Self.appendInteger(Int64(value), into: &buffer)
            buffer.append(UInt8(ascii: "i"))
        } else {
            Self.appendFloat(value, into: &buffer)
        }
        buffer.append(UInt8(ascii: " "))
        Self.appendInteger(timestamp, into: &buffer)
        buffer.append(UInt8(ascii: "\n"))
    }

    private func appendTag(_ entry: AttributeList.Entry, into buffer: inout [UInt8]) {
        switch entry.value {
        case .string(let text):
            guard !text.isEmpty else { return }   // InfluxDB refuses empty tag values: leave the tag out
            appendTagStart(entry.attribute, into: &buffer)
            Self.appendTagText(text, into: &buffer)
        case .int(let value):
            appendTagStart(entry.attribute, into: &buffer)
            Self.appendInteger(Int64(value), into: &buffer)
        case .double, .bool:
            appendTagStart(entry.attribute, into: &buffer)
            Self.appendTagText(entry.value.description, into: &buffer)
        }
    }

    private func appendTagStart(_ attribute: Attribute, into buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: ","))
        Self.appendName(attribute, into: &buffer)
        buffer.append(UInt8(ascii: "="))
    }

    /// Appends text, escaping the bytes `needsEscape` picks with a backslash and writing line breaks as `newline`
    /// (nil: kept). Text without such bytes (the usual case) is copied in one go.
    @inline(__always)
    private static func appendEscaped(_ text: String, into buffer: inout [UInt8], newline: [UInt8]?,
                                      needsEscape: (UInt8) -> Bool) {
        var text = text
        text.withUTF8 { bytes in
            let replacesBreaks = newline != nil
            let special = bytes.contains { (byte: UInt8) -> Bool in
                if needsEscape(byte) { return true }
                return replacesBreaks && Self.isLineBreak(byte)
            }
            guard special else {
                buffer.append(contentsOf: bytes)
                return
            }
            buffer.reserveCapacity(buffer.count + bytes.count * 2)
            for byte in bytes {
                if let newline, Self.isLineBreak(byte) {
                    buffer.append(contentsOf: newline)
                } else {
                    if needsEscape(byte) { buffer.append(UInt8(ascii: "\\")) }
                    buffer.append(byte)
                }
            }
        }
    }

    @inline(__always)
    private static func isLineBreak(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D || byte == 0x09 }

    static func appendMeasurement(_ text: String, into buffer: inout [UInt8]) {
        appendEscaped(text, into: &buffer, newline: [UInt8(ascii: "_")]) { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: " ") }
    }

    /// Tag keys, tag values and field keys.
    static func appendTagText(_ text: String, into buffer: inout [UInt8]) {
        appendEscaped(text, into: &buffer, newline: [UInt8(ascii: "\\"), UInt8(ascii: " ")]) {
            $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "=")
        }
    }

    static func appendField(_ value: AttributeValue, into buffer: inout [UInt8]) {
        switch value {
        case .int(let value):
            appendInteger(Int64(value), into: &buffer)
            buffer.append(UInt8(ascii: "i"))
        case .double(let value):
            appendFloat(value, into: &buffer)
        case .bool(let value):
            buffer.append(contentsOf: (value ? "true" : "false").utf8)
        case .string(let text):
            buffer.append(UInt8(ascii: "\""))
            appendEscaped(text, into: &buffer, newline: nil) { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
            buffer.append(UInt8(ascii: "\""))
        }
    }

    static func appendInteger(_ value: Int64, into buffer: inout [UInt8]) {
        if value == 0 {
            buffer.append(UInt8(ascii: "0"))
            return
        }
        var magnitude = value.magnitude
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)   // 20 digits at most, written backwards
        var count = 0
        withUnsafeMutableBytes(of: &digits) { raw in
            var position = raw.count
            while magnitude > 0 {
                position -= 1
                raw[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            }
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[position...]))
        }
    }

    /// Floats: whole values as digits (InfluxDB reads `5` without `i` as a float), others in Swift's shortest
    /// round-trip form; non-finite values, which the line protocol cannot carry, as 0.
    static func appendFloat(_ value: Double, into buffer: inout [UInt8]) {
        guard value.isFinite else {
            buffer.append(UInt8(ascii: "0"))
            return
        }
        if value.rounded() == value, abs(value) < 1e15 {
            appendInteger(Int64(value), into: &buffer)
        } else {
            buffer.append(contentsOf: value.description.utf8)
        }
    }
}
