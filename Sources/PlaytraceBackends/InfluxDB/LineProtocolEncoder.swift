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
/// The escaping rules (``LineProtocolText``) are what makes a line read back as it was meant: see there.
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
    public var tagAttributes: Set<Attribute>

    public init(eventMeasurement: String = "events", tagAttributes: Set<Attribute> = Set(Attribute.dimensions)) {
        self.eventMeasurement = eventMeasurement
        self.tagAttributes = tagAttributes
    }

    /// Nanoseconds since 1970 of a date. Whole seconds and the fraction are converted apart, so that the date's own
    /// precision is kept (a product in one double would round to 256 ns); a date out of range is 0.
    public static func nanoseconds(_ date: StreamDate) -> Int64 {
        let seconds = date.secondsSince1970
        guard seconds.isFinite, abs(seconds) < 9e9 else { return 0 }
        let whole = seconds.rounded(.down)
        return Int64(whole) * 1_000_000_000 + Int64(((seconds - whole) * 1e9).rounded())
    }

    /// Appends an event's line, with its line feed: every attribute the event holds, as ``Event/forEachAttribute(_:)``
    /// reads them.
    public func encode(_ event: Event, timestamp: Int64, into buffer: inout [UInt8]) {
        LineProtocolText.appendMeasurement(eventMeasurement, to: &buffer)
        if LineProtocolText.isWritableKey(event.action.name) {
            buffer.append(contentsOf: ",action=".utf8)
            LineProtocolText.appendKey(event.action.name, to: &buffer)
        }
        event.forEachAttribute { attribute, value in
            if tagAttributes.contains(attribute) { appendTag(attribute, value, to: &buffer) }
        }
        var separator = UInt8(ascii: " ")
        event.forEachAttribute { attribute, value in
            guard !tagAttributes.contains(attribute), LineProtocolText.isWritableKey(attribute.name) else { return }
            buffer.append(separator)
            separator = UInt8(ascii: ",")
            LineProtocolText.appendKey(attribute.name, to: &buffer)
            buffer.append(UInt8(ascii: "="))
            LineProtocolText.appendField(value, to: &buffer)
        }
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
        guard LineProtocolText.isWritableKey(attribute.name) else { return }
        let text: String
        switch value {
        case .string(let string): text = string
        case .int(let integer): text = String(integer)
        case .bool(let flag): text = flag ? "true" : "false"
        case .double(let number): text = number.description
        }
        guard LineProtocolText.isWritableKey(text) else { return }
        buffer.append(UInt8(ascii: ","))
        LineProtocolText.appendKey(attribute.name, to: &buffer)
        buffer.append(UInt8(ascii: "="))
        LineProtocolText.appendKey(text, to: &buffer)
    }

    private func appendEnd(_ timestamp: Int64, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: " "))
        LineProtocolText.appendInteger(timestamp, to: &buffer)
        buffer.append(UInt8(ascii: "\n"))
    }
}
