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
        didSet {
            tagMasks = Self.masks(tagAttributes)
            hasCustomTags = tagAttributes.contains { Attribute.standardSlot(of: $0.id) == nil }
        }
    }
    /// The standard tag attributes as bits, by ``Attribute/standardSlot(of:)`` (checked without hashing).
    private var tagMasks: (UInt64, UInt64)
    /// Whether a custom attribute (outside the slots) is a tag.
    private var hasCustomTags: Bool

    public init(eventMeasurement: String = "events", tagAttributes: Set<Attribute> = Set(Attribute.dimensions)) {
        self.eventMeasurement = eventMeasurement
        self.tagAttributes = tagAttributes
        tagMasks = Self.masks(tagAttributes)
        hasCustomTags = tagAttributes.contains { Attribute.standardSlot(of: $0.id) == nil }
    }

    private static func masks(_ attributes: Set<Attribute>) -> (UInt64, UInt64) {
        var masks: (UInt64, UInt64) = (0, 0)
        for attribute in attributes {
            guard let slot = Attribute.standardSlot(of: attribute.id) else { continue }
            if slot < 64 { masks.0 |= 1 << UInt64(slot) } else { masks.1 |= 1 << UInt64(slot - 64) }
        }
        return masks
    }

    @inline(__always)
    private func isTag(_ entry: UnsafePointer<AttributeList.Entry>) -> Bool {
        guard let slot = Attribute.standardSlot(of: entry.pointee.attribute.id) else {
            return hasCustomTags && tagAttributes.contains(entry.pointee.attribute)
        }
        return slot < 64 ? tagMasks.0 & (1 << UInt64(slot)) != 0 : tagMasks.1 & (1 << UInt64(slot - 64)) != 0
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
        LineWriter.append(to: &buffer) { line in
            Self.writeMeasurement(eventMeasurement, to: &line)
            line.ascii(",action=")
            Self.writeTagText(event.action.name, to: &line)
            var separator = UInt8(ascii: " ")
            event.attributes.withEntries { entries in
                // Entries are read in place through pointers: copying one would count references to its strings.
                guard let first = entries.baseAddress else { return }
                for index in 0..<entries.count where isTag(first + index) {
                    writeTag(first + index, to: &line)
                }
                for index in 0..<entries.count where !isTag(first + index) {
                    line.byte(separator)
                    separator = UInt8(ascii: ",")
                    Self.writeName(of: first + index, to: &line)
                    line.byte(UInt8(ascii: "="))
                    Self.writeField(of: first + index, to: &line)
                }
            }
            if separator == UInt8(ascii: " ") {
                // A point needs a field: an event with attributes all in tags gets a count.
                line.ascii(" count=1i")
            }
            line.byte(UInt8(ascii: " "))
            line.integer(timestamp)
            line.byte(UInt8(ascii: "\n"))
        }
    }

    /// Appends a metric's line (with its line feed).
    public func encode(_ metric: Metric, timestamp: Int64, into buffer: inout [UInt8]) {
        LineWriter.append(to: &buffer) { line in
            Self.writeMeasurement(metric.name, to: &line)
            metric.dimensions.withEntries { entries in
                guard let first = entries.baseAddress else { return }
                for index in 0..<entries.count { writeTag(first + index, to: &line) }
            }
            line.ascii(",kind=")
            switch metric.kind {
            case .counter: line.ascii("counter")
            case .gauge: line.ascii("gauge")
            case .histogram: line.ascii("histogram")
            }
            line.ascii(" value=")
            let value = metric.value
            if metric.kind == .counter, value.rounded() == value, abs(value) < 1e15 {
                line.integer(Int64(value))
                line.byte(UInt8(ascii: "i"))
            } else {
                Self.writeFloat(value, to: &line)
            }
            line.byte(UInt8(ascii: " "))
            line.integer(timestamp)
            line.byte(UInt8(ascii: "\n"))
        }
    }

    private func writeTag(_ entry: UnsafePointer<AttributeList.Entry>, to line: inout LineWriter) {
        switch entry.pointee.value {
        case .string(let text):
            guard !text.isEmpty else { return }   // InfluxDB refuses empty tag values: leave the tag out
            writeTagStart(entry, to: &line)
            Self.writeTagText(text, to: &line)
        case .int(let value):
            writeTagStart(entry, to: &line)
            line.integer(Int64(value))
        case .bool(let value):
            writeTagStart(entry, to: &line)
            if value { line.ascii("true") } else { line.ascii("false") }
        case .double(let value):
            writeTagStart(entry, to: &line)
            Self.writeTagText(value.description, to: &line)
        }
    }

    private func writeTagStart(_ entry: UnsafePointer<AttributeList.Entry>, to line: inout LineWriter) {
        line.byte(UInt8(ascii: ","))
        Self.writeName(of: entry, to: &line)
        line.byte(UInt8(ascii: "="))
    }

    @inline(__always)
    private static func writeName(of entry: UnsafePointer<AttributeList.Entry>, to line: inout LineWriter) {
        if let name = NameTable.shared.escapedName(entry.pointee.attribute.id) {
            line.bytes(name)
        } else {
            writeTagText(entry.pointee.attribute.name, to: &line)
        }
    }

    /// Writes text, escaping the bytes `needsEscape` picks with a backslash and writing line breaks as `newline`
    /// (nil: kept). Text without such bytes (the usual case) is copied in one go.
    @inline(__always)
    private static func writeEscaped(_ text: String, to line: inout LineWriter, newline: StaticString?,
                                     needsEscape: (UInt8) -> Bool) {
        var text = text
        text.withUTF8 { bytes in
            let replacesBreaks = newline != nil
            let special = bytes.contains { (byte: UInt8) -> Bool in
                if needsEscape(byte) { return true }
                return replacesBreaks && isLineBreak(byte)
            }
            guard special else {
                line.bytes(bytes)
                return
            }
            for byte in bytes {
                line.reserve(2)
                if let newline, isLineBreak(byte) {
                    line.ascii(newline)
                } else {
                    if needsEscape(byte) { line.byteInReserved(UInt8(ascii: "\\")) }
                    line.byteInReserved(byte)
                }
            }
        }
    }

    @inline(__always)
    private static func isLineBreak(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D || byte == 0x09 }

    private static func writeMeasurement(_ text: String, to line: inout LineWriter) {
        writeEscaped(text, to: &line, newline: "_") { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: " ") }
    }

    /// Tag keys, tag values and field keys.
    private static func writeTagText(_ text: String, to line: inout LineWriter) {
        writeEscaped(text, to: &line, newline: "\\ ") {
            $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "=")
        }
    }

    private static func writeField(of entry: UnsafePointer<AttributeList.Entry>, to line: inout LineWriter) {
        switch entry.pointee.value {
        case .int(let value):
            line.integer(Int64(value))
            line.byte(UInt8(ascii: "i"))
        case .double(let value):
            writeFloat(value, to: &line)
        case .bool(let value):
            if value { line.ascii("true") } else { line.ascii("false") }
        case .string(let text):
            line.byte(UInt8(ascii: "\""))
            writeEscaped(text, to: &line, newline: nil) { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
            line.byte(UInt8(ascii: "\""))
        }
    }

    /// Floats: whole values as digits (InfluxDB reads `5` without `i` as a float), others in Swift's shortest
    /// round-trip form; non-finite values, which the line protocol cannot carry, as 0.
    private static func writeFloat(_ value: Double, to line: inout LineWriter) {
        guard value.isFinite else {
            line.byte(UInt8(ascii: "0"))
            return
        }
        if value.rounded() == value, abs(value) < 1e15 {
            line.integer(Int64(value))
        } else {
            var text = value.description
            text.withUTF8 { line.bytes($0) }
        }
    }

    /// Tag keys, tag values and field keys, escaped, appended to a buffer (names escaped once at start-up).
    static func appendTagText(_ text: String, into buffer: inout [UInt8]) {
        LineWriter.append(to: &buffer) { writeTagText(text, to: &$0) }
    }
}

/// The standard attributes' names, escaped for the line protocol once, in one block of memory that lives as long
/// as the process (read on every field of every line: no reference counting per read).
private final class NameTable: Sendable {
    static let shared = NameTable()

    // Written once in `init` and only read afterwards; never freed (the table lives as long as the process).
    nonisolated(unsafe) private let bytes: UnsafeMutablePointer<UInt8>
    nonisolated(unsafe) private let ranges: UnsafeMutablePointer<(start: Int, count: Int)>

    private init() {
        var block: [UInt8] = []
        var ranges = [(start: Int, count: Int)](repeating: (0, 0), count: 128)
        for attribute in Attribute.allStandard {
            guard let slot = Attribute.standardSlot(of: attribute.id) else { continue }
            let start = block.count
            LineProtocolEncoder.appendTagText(attribute.name, into: &block)
            ranges[slot] = (start, block.count - start)
        }
        bytes = .allocate(capacity: max(block.count, 1))
        bytes.initialize(from: block, count: block.count)
        self.ranges = .allocate(capacity: ranges.count)
        self.ranges.initialize(from: ranges, count: ranges.count)
    }

    /// The escaped name of a standard attribute.
    @inline(__always)
    func escapedName(_ id: UInt32) -> UnsafeBufferPointer<UInt8>? {
        guard let slot = Attribute.standardSlot(of: id) else { return nil }
        let range = ranges[slot]
        return range.count > 0 ? UnsafeBufferPointer(start: bytes + range.start, count: range.count) : nil
    }
}
