public import PlaytraceCore
public import PlaytraceTelemetry

/// Writes events and metrics in InfluxDB's line protocol, with the dimensions as tags (so that queries can
/// `GROUP BY` session, content, engine…) and typed fields: integers with `i`, floats, booleans and quoted strings.
///
/// - Events go to one measurement (``eventMeasurement``), tagged with their action and the attributes in
///   ``tagAttributes``; every other attribute is a field. An event with no field gets `count=1i` (a point needs one).
/// - Metrics go to a measurement named after the metric, tagged with their dimensions and kind, with one field,
///   `value` (an integer for whole counters, a float otherwise).
///
/// The escaping rules (``LineProtocolText``) are what makes a line read back as it was meant. Two tables made once
/// keep an event cheap: the standard attributes' and actions' names, escaped, and the standard tag attributes as bits.
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
        didSet { tags = TagChoice(tagAttributes) }
    }
    private var tags: TagChoice

    public init(eventMeasurement: String = "events", tagAttributes: Set<Attribute> = Set(Attribute.dimensions)) {
        self.eventMeasurement = eventMeasurement
        self.tagAttributes = tagAttributes
        tags = TagChoice(tagAttributes)
    }

    /// Nanoseconds since 1970 of a date. Whole seconds and the fraction are converted apart, so that the date's own
    /// precision is kept (a product in one double would round to 256 ns); a date out of range is 0.
    public static func nanoseconds(_ date: StreamDate) -> Int64 {
        let seconds = date.secondsSince1970
        guard seconds.isFinite, abs(seconds) < 9e9 else { return 0 }
        let whole = seconds.rounded(.down)
        return Int64(whole) * 1_000_000_000 + Int64(((seconds - whole) * 1e9).rounded())
    }

    /// Appends an event's line, with its line feed: every attribute the event holds, as the event's
    /// `forEachAttribute(_:)` reads them.
    public func encode(_ event: Event, timestamp: Int64, into buffer: inout [UInt8]) {
        LineProtocolText.appendMeasurement(eventMeasurement, to: &buffer)
        if let index = event.action.standardIndex, Names.actions.indices.contains(index) {
            buffer.append(contentsOf: ",action=".utf8)
            buffer.append(contentsOf: Names.actions[index])
        } else if LineProtocolText.isWritableKey(event.action.name) {
            buffer.append(contentsOf: ",action=".utf8)
            LineProtocolText.appendKey(event.action.name, to: &buffer)
        }
        // One pass: the tags go to the line, the fields after them, once the tags are all written.
        var fields: [UInt8] = []
        fields.reserveCapacity(1_024)
        var separator = UInt8(ascii: " ")
        event.forEachAttribute { attribute, value in
            if tags.contains(attribute) {
                appendTag(attribute, value, to: &buffer)
            } else if appendKey(of: attribute, after: separator, to: &fields) {
                separator = UInt8(ascii: ",")
                fields.append(UInt8(ascii: "="))
                LineProtocolText.appendField(value, to: &fields)
            }
        }
        buffer.append(contentsOf: fields)
        // A point needs a field: an event whose attributes are all tags gets a count.
        if separator == UInt8(ascii: " ") { buffer.append(contentsOf: " count=1i".utf8) }
        appendEnd(timestamp, to: &buffer)
    }

    /// Appends a metric's line, with its line feed.
    public func encode(_ metric: Metric, timestamp: Int64, into buffer: inout [UInt8]) {
        LineProtocolText.appendMeasurement(metric.name, to: &buffer)
        for entry in metric.dimensions { appendTag(entry.attribute, entry.value, to: &buffer) }
        switch metric.kind {
        case .counter: buffer.append(contentsOf: ",kind=counter value=".utf8)
        case .gauge: buffer.append(contentsOf: ",kind=gauge value=".utf8)
        case .histogram: buffer.append(contentsOf: ",kind=histogram value=".utf8)
        }
        if metric.kind == .counter, let whole = LineProtocolText.wholeNumber(metric.value) {
            LineProtocolText.appendInteger(whole, to: &buffer)
            buffer.append(UInt8(ascii: "i"))
        } else {
            LineProtocolText.appendFloat(metric.value, to: &buffer)
        }
        appendEnd(timestamp, to: &buffer)
    }

    /// Appends the lines of the metrics an event produced, then the event's line: what a backend that receives them
    /// together (`Backend.send(_:metrics:)`) writes. `timestamp` gives each line's timestamp from its date, in that
    /// order (a backend makes them unique).
    public func encode(_ event: Event, metrics: [Metric], into buffer: inout [UInt8], timestamp: (StreamDate) -> Int64) {
        for metric in metrics { encode(metric, timestamp: timestamp(metric.date), into: &buffer) }
        encode(event, timestamp: timestamp(event.date), into: &buffer)
    }

    /// `,key=value`, unless the key or the value cannot be written (left out: InfluxDB would refuse the batch).
    private func appendTag(_ attribute: Attribute, _ value: AttributeValue, to buffer: inout [UInt8]) {
        let text: String
        switch value {
        case .string(let string): text = string
        case .int(let integer): text = String(integer)
        case .bool(let flag): text = flag ? "true" : "false"
        case .double(let number): text = number.description
        }
        guard LineProtocolText.isWritableKey(text), appendKey(of: attribute, after: UInt8(ascii: ","), to: &buffer) else { return }
        buffer.append(UInt8(ascii: "="))
        LineProtocolText.appendKey(text, to: &buffer)
    }

    /// `separator` and the attribute's name as a key; `false` (nothing written) when the name cannot be one.
    private func appendKey(of attribute: Attribute, after separator: UInt8, to buffer: inout [UInt8]) -> Bool {
        if let slot = Attribute.standardSlot(of: attribute.id), let name = Names.attributes[slot] {
            buffer.append(separator)
            buffer.append(contentsOf: name)
            return true
        }
        let name = attribute.name
        guard LineProtocolText.isWritableKey(name) else { return false }
        buffer.append(separator)
        LineProtocolText.appendKey(name, to: &buffer)
        return true
    }

    private func appendEnd(_ timestamp: Int64, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: " "))
        LineProtocolText.appendInteger(timestamp, to: &buffer)
        buffer.append(UInt8(ascii: "\n"))
    }
}

/// The tag attributes: the standard ones as bits by `Attribute.standardSlot(of:)` (checked without hashing), the
/// custom ones in a set.
private struct TagChoice: Sendable {
    var standard: (UInt64, UInt64) = (0, 0)
    var custom: Set<Attribute> = []

    init(_ attributes: Set<Attribute>) {
        for attribute in attributes {
            guard let slot = Attribute.standardSlot(of: attribute.id) else {
                custom.insert(attribute)
                continue
            }
            if slot < 64 { standard.0 |= 1 << UInt64(slot) } else { standard.1 |= 1 << UInt64(slot - 64) }
        }
    }

    func contains(_ attribute: Attribute) -> Bool {
        guard let slot = Attribute.standardSlot(of: attribute.id) else { return !custom.isEmpty && custom.contains(attribute) }
        return slot < 64 ? standard.0 & (1 << UInt64(slot)) != 0 : standard.1 & (1 << UInt64(slot - 64)) != 0
    }
}

/// The standard attributes' names (by slot) and actions' names (by index), escaped as keys once.
private enum Names {
    static let attributes: [[UInt8]?] = {
        var names = [[UInt8]?](repeating: nil, count: 128)
        for attribute in Attribute.allStandard {
            guard let slot = Attribute.standardSlot(of: attribute.id), names.indices.contains(slot) else { continue }
            var key: [UInt8] = []
            LineProtocolText.appendKey(attribute.name, to: &key)
            names[slot] = key
        }
        return names
    }()

    static let actions: [[UInt8]] = Action.standard.map { action in
        var key: [UInt8] = []
        LineProtocolText.appendKey(action.name, to: &key)
        return key
    }
}
