public import PlaytraceCore
public import PlaytraceTelemetry
import Synchronization

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
/// spaces instead. In names and tag values InfluxDB reads a backslash as escaping the next byte and never reads
/// `\\` back as one backslash, so a run of backslashes at the end or right before an escaped byte cannot be written
/// at all (the whole batch would be refused): it is left out. Other backslashes are written, and read back, as
/// they are.
///
/// ```swift
/// var buffer: [UInt8] = []
/// LineProtocolEncoder().encode(event, timestamp: nanoseconds, into: &buffer)
/// // events,action=Start,contentId=urn:1,engine=headless position=0i,title="The show",inPauseBlock=false 1800…
/// ```
public struct LineProtocolEncoder: Sendable {
    /// The measurement of events.
    public var eventMeasurement: String {
        didSet { eventLinePrefix = Self.eventLinePrefix(eventMeasurement) }
    }
    /// `<measurement>,action=`, escaped once.
    private var eventLinePrefix: [UInt8]
    /// The attributes written as tags (the others are fields).
    public var tagAttributes: Set<Attribute> {
        didSet {
            tagMasks = Self.masks(tagAttributes)
            hasCustomTags = tagAttributes.contains { Attribute.standardSlot(of: $0.id) == nil }
            writesSnapshotAsBlock = Self.writesSnapshotAsBlock(tagMasks, hasCustomTags)
            tagChoice = .next()
        }
    }
    /// The standard tag attributes as bits, by ``Attribute/standardSlot(of:)`` (checked without hashing).
    private var tagMasks: (UInt64, UInt64)
    /// Whether a custom attribute (outside the slots) is a tag.
    private var hasCustomTags: Bool
    /// Identifies the tag attributes for caches of what the encoder wrote.
    private var tagChoice = TagKey.next()
    /// Whether the playback id is the snapshot's only tag, so that a whole snapshot goes out as one block of fields
    /// (``SnapshotBlock``).
    private var writesSnapshotAsBlock: Bool

    public init(eventMeasurement: String = "events", tagAttributes: Set<Attribute> = Set(Attribute.dimensions)) {
        self.eventMeasurement = eventMeasurement
        eventLinePrefix = Self.eventLinePrefix(eventMeasurement)
        self.tagAttributes = tagAttributes
        tagMasks = Self.masks(tagAttributes)
        hasCustomTags = tagAttributes.contains { Attribute.standardSlot(of: $0.id) == nil }
        writesSnapshotAsBlock = Self.writesSnapshotAsBlock(tagMasks, hasCustomTags)
    }

    private static func eventLinePrefix(_ measurement: String) -> [UInt8] {
        var prefix: [UInt8] = []
        LineWriter.append(to: &prefix) { line in
            writeMeasurement(measurement, to: &line)
            line.ascii(",action=")
        }
        return prefix
    }

    private static func writesSnapshotAsBlock(_ masks: (UInt64, UInt64), _ hasCustomTags: Bool) -> Bool {
        masks.1 == 0 && !hasCustomTags && masks.0 & PlaybackSnapshot.carryingAll == playbackIdSlot
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
        guard Attribute.standardSlot(of: entry.pointee.attribute.id) != nil || hasCustomTags else { return false }
        return isTag(entry.pointee.attribute)
    }

    /// Nanoseconds since 1970 of a date.
    /// Whole seconds and the fraction are converted apart, so that the date's own precision is kept (a product
    /// in one double would round to 256 ns).
    public static func nanoseconds(_ date: StreamDate) -> Int64 {
        let seconds = date.secondsSince1970
        guard seconds.isFinite, abs(seconds) < 9e9 else { return 0 }
        if seconds >= 0 {
            // The usual case, in integer arithmetic (truncation is the floor here, and adding ½ rounds the fraction).
            let whole = Int64(seconds)
            return whole &* 1_000_000_000 &+ Int64((seconds - Double(whole)) * 1e9 + 0.5)
        }
        let whole = seconds.rounded(.down)
        return Int64(whole) * 1_000_000_000 + Int64(((seconds - whole) * 1e9).rounded())
    }

    /// Appends an event's line (with its line feed).
    ///
    /// Without a cache, the tracker's context is encoded anew for each event; a backend that encodes a stream of
    /// events keeps a ``ContextCache`` and passes it to every call.
    public func encode(_ event: Event, timestamp: Int64, into buffer: inout [UInt8]) {
        var cache = ContextCache()
        encode(event, timestamp: timestamp, into: &buffer, cache: &cache)
    }

    /// Appends an event's line (with its line feed) to an array, reusing what `cache` holds of the event's context.
    /// (Writing into a ``LineBuffer`` is faster: the line goes there without an intermediate copy.)
    public func encode(_ event: Event, timestamp: Int64, into buffer: inout [UInt8], cache: inout ContextCache) {
        var lines = LineBuffer()
        encode(event, timestamp: timestamp, into: &lines, cache: &cache)
        lines.withUnsafeBytes { buffer.append(contentsOf: $0) }
    }

    /// Appends an event's line (with its line feed), reusing what `cache` holds of the event's context (its tags
    /// and fields are encoded once for all the events that share it).
    public func encode(_ event: Event, timestamp: Int64, into buffer: inout LineBuffer, cache: inout ContextCache) {
        guard event.isContextUnshadowed else {
            // Something the event holds itself, or the hub's snapshot, replaces a context attribute: write the
            // attributes as the subscript reads them, one list.
            encodeFlat(event, attributes: event.allAttributes, timestamp: timestamp, into: &buffer)
            return
        }
        var line = LineWriter(taking: &buffer)
        writeEventLine(event, timestamp: timestamp, cache: &cache, to: &line)
        line.finish(into: &buffer)
    }

    /// Appends the lines of the metrics an event produced, then the event's line, in one go: what a backend that
    /// receives them together (``Backend/send(_:metrics:)``) calls. `timestamp` gives each line's timestamp from its
    /// date, in that order (a backend makes them unique).
    public func encode(_ event: Event, metrics: [Metric], into buffer: inout LineBuffer, cache: inout ContextCache,
                       timestamp: (StreamDate) -> Int64) {
        var line = LineWriter(taking: &buffer)
        for index in metrics.indices {
            let metric = metrics[index]
            writeMetricLine(metric, timestamp: timestamp(metric.date), cache: &cache, to: &line)
        }
        let eventTimestamp = timestamp(event.date)
        if event.isContextUnshadowed {
            writeEventLine(event, timestamp: eventTimestamp, cache: &cache, to: &line)
            line.finish(into: &buffer)
        } else {
            line.finish(into: &buffer)
            encodeFlat(event, attributes: event.allAttributes, timestamp: eventTimestamp, into: &buffer)
        }
    }

    /// An event's line, whose context no attribute replaces (``Event/isContextUnshadowed``).
    private func writeEventLine(_ event: Event, timestamp: Int64, cache: inout ContextCache,
                                to line: inout LineWriter) {
        cache.prepare(event.context, for: self)
        line.bytes(eventLinePrefix)
        NameTable.shared.writeActionName(event.action, to: &line)
        cache.contextTags.copy(to: &line)
        if tagMasks.0 & Self.playbackIdSlot != 0, event.playback.carried & Self.playbackIdSlot != 0,
           let id = event.playback.playbackIdentifier, !event.attributes.contains(.playbackId) {
            // The playback's tag, escaped once per playback.
            cache.writePlaybackTag(id, to: &line)
        }
        var fields = FieldSeparator()
        if writesSnapshotAsBlock, event.playback.carried == PlaybackSnapshot.carryingAll,
           !event.attributes.mayContain(slots: PlaybackSnapshot.carryingAll), !event.attributes.mayHoldTimeSince {
            // The usual event: its own attributes, the context's fields, then the whole snapshot as one block.
            writeOwn(event, tags: true, fields: &fields, to: &line)
            if cache.hasContextFields {
                fields.write(to: &line)
                cache.writeContextFields(to: &line)
            }
            writeOwn(event, tags: false, fields: &fields, to: &line)
            SnapshotBlock.write(event.playback, fields: &fields, to: &line)
        } else {
            writeOwnAndPlayback(event, tags: true, fields: &fields, to: &line)
            if cache.hasContextFields {
                fields.write(to: &line)
                cache.writeContextFields(to: &line)
            }
            writeOwnAndPlayback(event, tags: false, fields: &fields, to: &line)
        }
        if !fields.wroteAny {
            // A point needs a field: an event with attributes all in tags gets a count.
            line.ascii(" count=1i")
        }
        line.byte(UInt8(ascii: " "))
        cache.timestamps.write(timestamp, to: &line)
        line.byte(UInt8(ascii: "\n"))
    }

    /// Writes, as tags or as fields, what the event holds beside its context: `senderId`, its own attributes and
    /// the playback snapshot's (those its own attributes do not replace).
    private func writeOwnAndPlayback(_ event: Event, tags: Bool, fields: inout FieldSeparator,
                                     to line: inout LineWriter) {
        writeOwn(event, tags: tags, fields: &fields, to: &line)
        if tags {
            writePlaybackTags(event.playback, own: event.attributes, fields: &fields, to: &line)
        } else {
            writePlaybackFields(event.playback, own: event.attributes, fields: &fields, to: &line)
        }
    }

    /// Writes, as tags or as fields, `senderId` and the event's own attributes.
    private func writeOwn(_ event: Event, tags: Bool, fields: inout FieldSeparator, to line: inout LineWriter) {
        if let sender = event.sender, isTag(.senderId) == tags, !event.attributes.contains(.senderId) {
            if tags || !NameTable.shared.writeFieldStart(Attribute.ID.senderId, fields: &fields, to: &line) {
                writeAttribute(.senderId, .int(sender.rawValue), asTag: tags, fields: &fields, to: &line)
            } else {
                line.integer(Int64(sender.rawValue))
                line.byte(UInt8(ascii: "i"))
            }
        }
        // Most events hold no tag of their own: the list is then not gone through for tags.
        if tags, !event.attributes.mayContain(slots: tagMasks.0),
           (tagMasks.1 == 0 && !hasCustomTags) || !event.attributes.mayHoldTimeSince {
            return
        }
        if tags {
            writeEntries(of: event.attributes, tags: true, fields: &fields, to: &line)
        } else {
            writeOwnFields(event.attributes, fields: &fields, to: &line)
        }
    }

    /// Writes the fields of an event's own attributes: integers of standard attributes (a playhead, a bit rate)
    /// straight through a cursor, the others the general way.
    private func writeOwnFields(_ attributes: AttributeList, fields: inout FieldSeparator, to line: inout LineWriter) {
        let names = NameTable.shared
        attributes.withEntries { entries in
            guard let first = entries.baseAddress else { return }
            for index in 0..<entries.count where !isTag(first + index) {
                if case .int(let value) = first[index].value, fields.wroteAny {
                    line.reserve(LineWriter.overRead + LineWriter.integerBound + 1)
                    var cursor = line.cursor
                    if names.writeFieldName(first[index].attribute.id, to: &cursor) {
                        cursor.integer(Int64(value))
                        cursor.byte(UInt8(ascii: "i"))
                        line.advance(to: cursor)
                        continue
                    }
                }
                if !names.writeFieldStart(first[index].attribute.id, fields: &fields, to: &line) {
                    fields.write(to: &line)
                    Self.writeName(of: first + index, to: &line)
                    line.byte(UInt8(ascii: "="))
                }
                Self.writeField(of: first + index, to: &line)
            }
        }
    }

    /// The snapshot's state attributes a line writes as tags (`tags`) or as fields: those carried and not replaced
    /// by the event's own.
    private func playbackSlots(_ playback: borrowing PlaybackSnapshot, own: borrowing AttributeList,
                               tags: Bool) -> UInt64 {
        var slots = playback.carried & (tags ? tagMasks.0 : ~tagMasks.0)
        if own.mayContain(slots: slots) {
            for attribute in PlaybackSnapshot.stateAttributes where own.contains(attribute) {
                slots &= ~(1 << UInt64(attribute.id))
            }
        }
        return slots
    }

    /// The most a standard time-since field takes: separator and name, value, `i`.
    private static let timeFieldBound = 1 + LineWriter.overRead + LineWriter.integerBound + 1

    private static let playbackIdSlot: UInt64 = 1 << UInt64(Attribute.ID.playbackId)

    private func writePlaybackTags(_ playback: borrowing PlaybackSnapshot, own: borrowing AttributeList,
                                   fields: inout FieldSeparator, to line: inout LineWriter) {
        // (The playback id is written with the context's tags.)
        let slots = playbackSlots(playback, own: own, tags: true) & ~Self.playbackIdSlot
        if slots != 0 {
            for attribute in PlaybackSnapshot.stateAttributes where slots & (1 << UInt64(attribute.id)) != 0 {
                if let value = playback[attribute] { writeAttribute(attribute, value, asTag: true, fields: &fields, to: &line) }
            }
        }
        guard tagMasks.1 != 0 || hasCustomTags else { return }   // no time-since attribute is a tag
        let ownMayHoldTimeSince = own.mayHoldTimeSince
        playback.forEachTimeSince { attribute, milliseconds in
            guard isTag(attribute), !ownMayHoldTimeSince || !own.contains(attribute) else { return }
            writeAttribute(attribute, .int(milliseconds), asTag: true, fields: &fields, to: &line)
        }
    }

    private func writePlaybackFields(_ playback: borrowing PlaybackSnapshot, own: borrowing AttributeList,
                                     fields: inout FieldSeparator, to line: inout LineWriter) {
        let names = NameTable.shared
        PlaybackFieldWriter(slots: playbackSlots(playback, own: own, tags: false), names: names)
            .write(playback, fields: &fields, to: &line)
        let ownMayHoldTimeSince = own.mayHoldTimeSince
        let timeTags = tagMasks.1 != 0 || hasCustomTags
        playback.forEachTimeSinceID { id, milliseconds in
            if timeTags || ownMayHoldTimeSince || Attribute.standardSlot(of: id) == nil {
                // The rare case: time-since tags, values the event sets itself, custom actions.
                guard let attribute = playback.timeSinceAttribute(id: id),
                      !isTag(attribute), !own.contains(attribute) else { return }
                if !names.writeFieldStart(id, fields: &fields, to: &line) {
                    fields.write(to: &line)
                    Self.writeTagText(attribute.name, to: &line)
                    line.byte(UInt8(ascii: "="))
                }
            } else {
                line.reserve(Self.timeFieldBound)
                names.writeFieldStartInReserved(id, fields: &fields, to: &line)
            }
            line.integer(Int64(milliseconds))
            line.byte(UInt8(ascii: "i"))
        }
    }

    private func writeAttribute(_ attribute: Attribute, _ value: AttributeValue, asTag: Bool,
                                fields: inout FieldSeparator, to line: inout LineWriter) {
        withUnsafePointer(to: AttributeList.Entry(attribute: attribute, value: value)) { entry in
            if asTag {
                writeTag(entry, to: &line)
            } else {
                fields.write(to: &line)
                Self.writeName(of: entry, to: &line)
                line.byte(UInt8(ascii: "="))
                Self.writeField(of: entry, to: &line)
            }
        }
    }

    /// Writes an event whose attributes are all in one list.
    private func encodeFlat(_ event: Event, attributes: AttributeList, timestamp: Int64,
                            into buffer: inout LineBuffer) {
        var line = LineWriter(taking: &buffer)
        Self.writeMeasurement(eventMeasurement, to: &line)
        line.ascii(",action=")
        Self.writeTagText(event.action.name, to: &line)
        var fields = FieldSeparator()
        writeEntries(of: attributes, tags: true, fields: &fields, to: &line)
        writeEntries(of: attributes, tags: false, fields: &fields, to: &line)
        if !fields.wroteAny { line.ascii(" count=1i") }
        line.byte(UInt8(ascii: " "))
        line.integer(timestamp)
        line.byte(UInt8(ascii: "\n"))
        line.finish(into: &buffer)
    }

    /// Writes the tags (`tags`) or the fields of a list.
    fileprivate func writeEntries(of attributes: AttributeList, tags: Bool, fields: inout FieldSeparator,
                                  to line: inout LineWriter) {
        attributes.withEntries { entries in
            guard let first = entries.baseAddress else { return }
            for index in 0..<entries.count where isTag(first + index) == tags {
                if tags {
                    writeTag(first + index, to: &line)
                } else {
                    if !NameTable.shared.writeFieldStart(first[index].attribute.id, fields: &fields, to: &line) {
                        fields.write(to: &line)
                        Self.writeName(of: first + index, to: &line)
                        line.byte(UInt8(ascii: "="))
                    }
                    Self.writeField(of: first + index, to: &line)
                }
            }
        }
    }

    /// Appends a metric's line (with its line feed).
    public func encode(_ metric: Metric, timestamp: Int64, into buffer: inout [UInt8]) {
        var cache = ContextCache()
        encode(metric, timestamp: timestamp, into: &buffer, cache: &cache)
    }

    /// Appends a metric's line (with its line feed) to an array, reusing what `cache` holds of its dimensions.
    public func encode(_ metric: Metric, timestamp: Int64, into buffer: inout [UInt8], cache: inout ContextCache) {
        var lines = LineBuffer()
        encode(metric, timestamp: timestamp, into: &lines, cache: &cache)
        lines.withUnsafeBytes { buffer.append(contentsOf: $0) }
    }

    /// Appends a metric's line (with its line feed), reusing what `cache` holds of its dimensions (metrics of one
    /// playback share them).
    public func encode(_ metric: Metric, timestamp: Int64, into buffer: inout LineBuffer, cache: inout ContextCache) {
        var line = LineWriter(taking: &buffer)
        writeMetricLine(metric, timestamp: timestamp, cache: &cache, to: &line)
        line.finish(into: &buffer)
    }

    private func writeMetricLine(_ metric: Metric, timestamp: Int64, cache: inout ContextCache,
                                 to line: inout LineWriter) {
        cache.prepareDimensions(metric.dimensions, for: self)
        Self.writeMeasurement(metric.name, to: &line)
        cache.writeDimensionTags(to: &line)
        switch metric.kind {
        case .counter: line.ascii(",kind=counter value=")
        case .gauge: line.ascii(",kind=gauge value=")
        case .histogram: line.ascii(",kind=histogram value=")
        }
        let value = metric.value
        if metric.kind == .counter, value.rounded() == value, abs(value) < 1e15 {
            line.integer(Int64(value))
            line.byte(UInt8(ascii: "i"))
        } else {
            Self.writeFloat(value, to: &line)
        }
        line.byte(UInt8(ascii: " "))
        cache.timestamps.write(timestamp, to: &line)
        line.byte(UInt8(ascii: "\n"))
    }

    /// Whether an attribute is written as a tag.
    @inline(__always)
    fileprivate func isTag(_ attribute: Attribute) -> Bool {
        guard let slot = Attribute.standardSlot(of: attribute.id) else {
            return hasCustomTags && tagAttributes.contains(attribute)
        }
        return slot < 64 ? tagMasks.0 & (1 << UInt64(slot)) != 0 : tagMasks.1 & (1 << UInt64(slot - 64)) != 0
    }

    /// What identifies the encoder's choice of tags, for caches.
    fileprivate var tagKey: TagKey { tagChoice }

    fileprivate func writeTag(_ entry: UnsafePointer<AttributeList.Entry>, to line: inout LineWriter) {
        switch entry.pointee.value {
        case .string(let text):
            // InfluxDB refuses empty tag values: leave the tag out (backslashes alone write as nothing).
            guard text.utf8.contains(where: { $0 != UInt8(ascii: "\\") }) else { return }
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
    fileprivate static func writeName(of entry: UnsafePointer<AttributeList.Entry>, to line: inout LineWriter) {
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
                                     special: SpecialBytes, needsEscape: (UInt8) -> Bool) {
        // Native strings lend their bytes in place (no copy of the string, no reference counted).
        if let done: Void = text.utf8.withContiguousStorageIfAvailable({ bytes in
            writeEscaped(bytes, to: &line, newline: newline, special: special, needsEscape: needsEscape)
        }) {
            return done
        }
        var text = text
        text.withUTF8 { writeEscaped($0, to: &line, newline: newline, special: special, needsEscape: needsEscape) }
    }

    @inline(__always)
    private static func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to line: inout LineWriter,
                                     newline: StaticString?, special: SpecialBytes, needsEscape: (UInt8) -> Bool) {
        guard bytes.contains(where: special.contains) else {
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
    private static func isLineBreak(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D || byte == 0x09 }

    private static func writeMeasurement(_ text: String, to line: inout LineWriter) {
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

    static func writeField(of entry: UnsafePointer<AttributeList.Entry>, to line: inout LineWriter) {
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
            writeEscaped(text, to: &line, newline: nil, special: .fieldString) {
                $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\")
            }
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

extension LineProtocolEncoder {
    /// What an encoder made of the last tracker context and metric dimensions it wrote, reused while events and
    /// metrics share them (``Event/context``, ``Metric/dimensions``). Keep one per stream of events.
    public struct ContextCache: Sendable {
        private var context = AttributeList()
        private var contextKey: TagKey?
        /// The context's tags (`,name=value`…) and fields (`,name=value,name=value`: written after a separator
        /// of their own, from ``contextFieldsStart``). Rebuilt in place when the context changes (no allocation).
        private(set) var contextTags = LineBuffer()
        private(set) var contextFields = LineBuffer()
        private(set) var contextFieldsStart = 0

        private var playbackIdentifier: PlaybackIdentifier?
        private var playbackTag = LineBuffer()

        private var dimensions = AttributeList()
        private var dimensionsKey: TagKey?
        /// The dimensions' tags, but the playback id's, which ``dimensionPlaybackTag`` holds: a new playback of the
        /// same content rewrites only that one.
        private(set) var dimensionTags = LineBuffer()
        private(set) var dimensionPlaybackTag = LineBuffer()

        /// The digits of the last timestamp written.
        var timestamps = TimestampText()

        public init() {}

        mutating func prepare(_ context: AttributeList, for encoder: LineProtocolEncoder) {
            let key = encoder.tagKey
            guard contextKey != key || !self.context.isIdentical(to: context) else { return }
            self.context = context
            contextKey = key
            contextTags.removeAll(keepingCapacity: true)
            var tags = LineWriter(taking: &contextTags)
            var tagSeparator = FieldSeparator()
            encoder.writeEntries(of: context, tags: true, fields: &tagSeparator, to: &tags)
            tags.finish(into: &contextTags)
            contextFields.removeAll(keepingCapacity: true)
            var fields = LineWriter(taking: &contextFields)
            var fieldSeparator = FieldSeparator(started: true)
            encoder.writeEntries(of: context, tags: false, fields: &fieldSeparator, to: &fields)
            fields.finish(into: &contextFields)
            // The block follows its own separator: the first field's is left out.
            contextFieldsStart = contextFields.count > 0 ? 1 : 0
        }

        /// Whether the context has fields.
        var hasContextFields: Bool { contextFields.count > contextFieldsStart }

        /// Writes the context's fields, without the first one's separator.
        func writeContextFields(to line: inout LineWriter) {
            contextFields.copy(to: &line, from: contextFieldsStart)
        }

        /// Writes `,playbackId=<id>`, escaped once per playback.
        mutating func writePlaybackTag(_ id: PlaybackIdentifier, to line: inout LineWriter) {
            if id != playbackIdentifier {
                playbackIdentifier = id
                playbackTag.removeAll(keepingCapacity: true)
                var tag = LineWriter(taking: &playbackTag)
                tag.ascii(",playbackId=")
                switch id {
                case .uuid(let uuid):
                    // Hexadecimal digits and hyphens: nothing to escape, and no text to make first.
                    tag.reserve(CompactUUID.textLength)
                    var cursor = tag.cursor
                    uuid.write(to: cursor.position)
                    cursor.position += CompactUUID.textLength
                    tag.advance(to: cursor)
                case .text(let text):
                    LineProtocolEncoder.writeTagText(text, to: &tag)
                }
                tag.finish(into: &playbackTag)
            }
            playbackTag.copy(to: &line)
        }

        mutating func prepareDimensions(_ dimensions: AttributeList, for encoder: LineProtocolEncoder) {
            let key = encoder.tagKey
            guard dimensionsKey != key || !self.dimensions.isIdentical(to: dimensions) else { return }
            let samePlaybackless = dimensionsKey == key && Self.equalButPlaybackID(self.dimensions, dimensions)
            self.dimensions = dimensions
            dimensionsKey = key
            dimensionPlaybackTag.removeAll(keepingCapacity: true)
            var playbackTag = LineWriter(taking: &dimensionPlaybackTag)
            var tags = samePlaybackless ? nil : Optional(LineWriter(taking: &dimensionTags, emptied: true))
            dimensions.withEntries { entries in
                guard let first = entries.baseAddress else { return }
                for index in 0..<entries.count {
                    if first[index].attribute.id == Attribute.ID.playbackId {
                        encoder.writeTag(first + index, to: &playbackTag)
                    } else if tags != nil {
                        encoder.writeTag(first + index, to: &tags!)
                    }
                }
            }
            playbackTag.finish(into: &dimensionPlaybackTag)
            tags?.finish(into: &dimensionTags)
        }

        /// Whether two dimension lists hold the same attributes, in the same order, with the same values, but the
        /// playback id.
        private static func equalButPlaybackID(_ old: AttributeList, _ new: AttributeList) -> Bool {
            guard old.count == new.count else { return false }
            return old.withEntries { old in
                new.withEntries { new in
                    for index in old.indices {
                        guard old[index].attribute == new[index].attribute else { return false }
                        if old[index].attribute.id != Attribute.ID.playbackId, old[index].value != new[index].value {
                            return false
                        }
                    }
                    return true
                }
            }
        }

        /// Writes the dimensions' tags.
        func writeDimensionTags(to line: inout LineWriter) {
            dimensionTags.copy(to: &line)
            dimensionPlaybackTag.copy(to: &line)
        }
    }

    /// Identifies an encoder's choice of tags, for caches: a new one each time the choice is made.
    struct TagKey: Sendable, Hashable {
        private static let last = Atomic<UInt64>(0)
        let value: UInt64

        static func next() -> TagKey { TagKey(value: last.add(1, ordering: .relaxed).newValue) }
    }
}

/// Writes the playback snapshot's state attributes as fields, straight from its properties.
private struct PlaybackFieldWriter {
    /// Which to write, by standard slot.
    let slots: UInt64
    let names: NameTable

    /// The most one field takes: separator and name (copied as padded words), value, `i`.
    private static let fieldBound = 1 + LineWriter.overRead + LineWriter.integerBound + 1

    func write(_ playback: borrowing PlaybackSnapshot, fields: inout FieldSeparator, to line: inout LineWriter) {
        // Room for all the numbers and flags at once, instead of a check per byte written.
        line.reserve(Self.fieldBound * PlaybackSnapshot.stateAttributes.count)
        integer(Attribute.ID.deltaPlayTime, playback.deltaPlayTime, &fields, &line)
        if slots & (1 << UInt64(Attribute.ID.playbackId)) != 0, let id = playback.playbackID {
            _ = names.writeFieldStart(Attribute.ID.playbackId, fields: &fields, to: &line)
            withUnsafePointer(to: AttributeList.Entry(attribute: .playbackId, value: .string(id))) {
                LineProtocolEncoder.writeField(of: $0, to: &line)
            }
        }
        integer(Attribute.ID.countErrors, playback.countErrors, &fields, &line)
        integer(Attribute.ID.countStarts, playback.countStarts, &fields, &line)
        integer(Attribute.ID.countAds, playback.countAds, &fields, &line)
        integer(Attribute.ID.accumPauseTime, playback.accumPauseTime, &fields, &line)
        integer(Attribute.ID.accumBufferTime, playback.accumBufferTime, &fields, &line)
        integer(Attribute.ID.accumSeekTime, playback.accumSeekTime, &fields, &line)
        integer(Attribute.ID.accumPlayTime, playback.accumPlayTime, &fields, &line)
        boolean(Attribute.ID.inPauseBlock, playback.inPauseBlock, &fields, &line)
        boolean(Attribute.ID.inSeekBlock, playback.inSeekBlock, &fields, &line)
        boolean(Attribute.ID.inBufferBlock, playback.inBufferBlock, &fields, &line)
        boolean(Attribute.ID.inPlaybackBlock, playback.inPlaybackBlock, &fields, &line)
        boolean(Attribute.ID.inAdBreakBlock, playback.inAdBreakBlock, &fields, &line)
        boolean(Attribute.ID.inAdBlock, playback.inAdBlock, &fields, &line)
    }

    @inline(__always)
    private func integer(_ id: UInt32, _ value: Int, _ fields: inout FieldSeparator, _ line: inout LineWriter) {
        guard slots & (1 << UInt64(id)) != 0 else { return }
        names.writeFieldStartInReserved(id, fields: &fields, to: &line)
        line.integerInReserved(Int64(value))
        line.byteInReserved(UInt8(ascii: "i"))
    }

    @inline(__always)
    private func boolean(_ id: UInt32, _ value: Bool, _ fields: inout FieldSeparator, _ line: inout LineWriter) {
        guard slots & (1 << UInt64(id)) != 0 else { return }
        names.writeFieldStartInReserved(id, fields: &fields, to: &line)
        names.writeBooleanInReserved(value, to: &line)
    }
}

/// Writes the separator before each field: a space before the first (it ends the tags), a comma before the others.
struct FieldSeparator {
    private(set) var wroteAny: Bool

    init(started: Bool = false) { wroteAny = started }

    @inline(__always)
    mutating func write(to line: inout LineWriter) {
        line.byte(wroteAny ? UInt8(ascii: ",") : UInt8(ascii: " "))
        wroteAny = true
    }

    /// Records that a field's separator was written.
    @inline(__always)
    mutating func markWritten() { wroteAny = true }
}

/// The standard attributes' names, escaped for the line protocol once, in one block of memory that lives as long
/// as the process (read on every field of every line: no reference counting per read).
///
/// Each name is stored as a field's prefix, `,name=`, and the block ends with padding, so that a prefix can be
/// copied a word at a time (``LineWriter/paddedBytes(_:count:)``).
final class NameTable: Sendable {
    static let shared = NameTable()

    // Written once in `init` and only read afterwards; never freed (the table lives as long as the process).
    nonisolated(unsafe) private let bytes: UnsafeMutablePointer<UInt8>
    nonisolated(unsafe) private let ranges: UnsafeMutablePointer<(start: Int, count: Int)>
    /// Where the standard actions' names are, by index.
    nonisolated(unsafe) private let actionRanges: UnsafeMutablePointer<(start: Int, count: Int)>
    private let actionCount: Int
    /// Where `true` and `false` are.
    private let trueStart: Int
    private let falseStart: Int

    private init() {
        var block: [UInt8] = []
        var ranges = [(start: Int, count: Int)](repeating: (0, 0), count: 128)
        for attribute in Attribute.allStandard {
            guard let slot = Attribute.standardSlot(of: attribute.id) else { continue }
            let start = block.count
            block.append(UInt8(ascii: ","))
            LineProtocolEncoder.appendTagText(attribute.name, into: &block)
            block.append(UInt8(ascii: "="))
            ranges[slot] = (start, block.count - start)
        }
        var actionRanges: [(start: Int, count: Int)] = []
        for action in Action.standard {
            let start = block.count
            LineProtocolEncoder.appendTagText(action.name, into: &block)
            actionRanges.append((start, block.count - start))
        }
        self.actionRanges = .allocate(capacity: actionRanges.count)
        self.actionRanges.initialize(from: actionRanges, count: actionRanges.count)
        actionCount = actionRanges.count
        trueStart = block.count
        block += Array("true".utf8)
        falseStart = block.count
        block += Array("false".utf8)
        block += [UInt8](repeating: 0, count: LineWriter.overRead + 1)
        bytes = .allocate(capacity: block.count)
        bytes.initialize(from: block, count: block.count)
        self.ranges = .allocate(capacity: ranges.count)
        self.ranges.initialize(from: ranges, count: ranges.count)
    }

    /// The escaped name of a standard attribute.
    @inline(__always)
    func escapedName(_ id: UInt32) -> UnsafeBufferPointer<UInt8>? {
        guard let slot = Attribute.standardSlot(of: id) else { return nil }
        let range = ranges[slot]
        return range.count > 0 ? UnsafeBufferPointer(start: bytes + range.start + 1, count: range.count - 2) : nil
    }

    /// Writes the start of a standard attribute's field (`,name=`, or ` name=` for a line's first field);
    /// `false` for a custom attribute.
    @inline(__always)
    func writeFieldStart(_ id: UInt32, fields: inout FieldSeparator, to line: inout LineWriter) -> Bool {
        guard let slot = Attribute.standardSlot(of: id) else { return false }
        let range = ranges[slot]
        guard range.count > 0 else { return false }
        if fields.wroteAny {
            line.paddedBytes(bytes + range.start, count: range.count)
        } else {
            line.byte(UInt8(ascii: " "))
            line.paddedBytes(bytes + range.start + 1, count: range.count - 1)
            fields.markWritten()
        }
        return true
    }

    /// Writes `,name=` for a standard attribute after other fields, room for ``LineWriter/overRead`` bytes having
    /// been reserved; `false` (nothing written) for a custom attribute.
    @inline(__always)
    func writeFieldNameInReserved(_ id: UInt32, to line: inout LineWriter) -> Bool {
        var cursor = line.cursor
        defer { line.advance(to: cursor) }
        return writeFieldName(id, to: &cursor)
    }

    /// ``writeFieldNameInReserved(_:to:)`` through a cursor.
    @inline(__always)
    func writeFieldName(_ id: UInt32, to cursor: inout ByteCursor) -> Bool {
        guard let slot = Attribute.standardSlot(of: id) else { return false }
        let range = ranges[slot]
        guard range.count > 0 else { return false }
        cursor.paddedBytes(bytes + range.start, count: range.count)
        return true
    }

    /// Writes an action's name, escaped as a tag value.
    @inline(__always)
    func writeActionName(_ action: Action, to line: inout LineWriter) {
        guard let index = action.standardIndex, index < actionCount else {
            LineProtocolEncoder.writeTagText(action.name, to: &line)
            return
        }
        let range = actionRanges[index]
        line.paddedBytes(bytes + range.start, count: range.count)
    }

    /// Writes the start of a standard attribute's field, room for ``LineWriter/overRead`` + 1 bytes having been
    /// reserved (the caller knows it is standard).
    @inline(__always)
    func writeFieldStartInReserved(_ id: UInt32, fields: inout FieldSeparator, to line: inout LineWriter) {
        guard let slot = Attribute.standardSlot(of: id) else { return }
        let range = ranges[slot]
        if fields.wroteAny {
            line.paddedBytesInReserved(bytes + range.start, count: range.count)
        } else {
            line.byteInReserved(UInt8(ascii: " "))
            line.paddedBytesInReserved(bytes + range.start + 1, count: range.count - 1)
            fields.markWritten()
        }
    }

    /// Writes `true` or `false`, room for ``LineWriter/overRead`` bytes having been reserved.
    @inline(__always)
    func writeBooleanInReserved(_ value: Bool, to line: inout LineWriter) {
        if value {
            line.paddedBytesInReserved(bytes + trueStart, count: 4)
        } else {
            line.paddedBytesInReserved(bytes + falseStart, count: 5)
        }
    }

    /// Writes `true` or `false`.
    @inline(__always)
    func writeBoolean(_ value: Bool, to line: inout LineWriter) {
        if value {
            line.paddedBytes(bytes + trueStart, count: 4)
        } else {
            line.paddedBytes(bytes + falseStart, count: 5)
        }
    }
}

/// Writes a whole playback snapshot as fields, as one block: the counters and accumulated times (names and
/// separators copied from a table, values written between them), the six block flags (one of 64 prepared texts),
/// then the time since each earlier action. For encoders whose only snapshot tag is the playback id, and events
/// whose own attributes replace none of the snapshot's.
enum SnapshotBlock {
    /// The integer fields, in ``PlaybackSnapshot/stateAttributes``' order (the playback id, a tag, left out).
    private static let integerAttributes: [Attribute] = [
        .deltaPlayTime, .countErrors, .countStarts, .countAds, .accumPauseTime, .accumBufferTime, .accumSeekTime,
        .accumPlayTime,
    ]
    private static let flagAttributes: [Attribute] = [
        .inPauseBlock, .inSeekBlock, .inBufferBlock, .inPlaybackBlock, .inAdBreakBlock, .inAdBlock,
    ]

    /// The texts, in one block that lives as long as the process: the first field's start after a space and after
    /// a comma, each following field's start after the previous value (`i,name=`), and the 64 flag texts
    /// (`i,inPauseBlock=false,…`), padded so that short ones can be copied a word at a time.
    private final class Table: Sendable {
        nonisolated(unsafe) let bytes: UnsafeMutablePointer<UInt8>
        nonisolated(unsafe) let ranges: UnsafeMutablePointer<(start: Int, count: Int)>
        /// Where the flag texts' ranges begin in ``ranges``.
        static let firstFlags = 1 + SnapshotBlock.integerAttributes.count
        /// The most the counters, times and flags take: each text (as the padded copy writes it) and each value.
        let bound: Int

        init() {
            var block: [UInt8] = []
            var ranges: [(start: Int, count: Int)] = []
            func addRaw(_ text: [UInt8]) {
                ranges.append((block.count, text.count))
                block += text
            }
            // " name=" and ",name=" for the first field; then "i,name=" for the others.
            let first = SnapshotBlock.integerAttributes[0].name
            addRaw(Array(" ".utf8) + Self.escaped(first) + Array("=".utf8))
            addRaw(Array(",".utf8) + Self.escaped(first) + Array("=".utf8))
            for attribute in SnapshotBlock.integerAttributes.dropFirst() {
                addRaw(Array("i,".utf8) + Self.escaped(attribute.name) + Array("=".utf8))
            }
            for flags in 0..<64 {
                var text = Array("i".utf8)
                for (bit, attribute) in SnapshotBlock.flagAttributes.enumerated() {
                    text += Array(",".utf8) + Self.escaped(attribute.name) + Array("=".utf8)
                    text += Array((flags & (1 << bit) != 0 ? "true" : "false").utf8)
                }
                addRaw(text)
            }
            let pieces = ranges[..<Self.firstFlags].map { max($0.count, LineWriter.overRead) }.reduce(0, +)
            let longestFlags = ranges[Self.firstFlags...].map(\.count).max() ?? 0
            // (The flag text is copied 32 bytes at a time: room for its count rounded up, and padding past the end.)
            bound = pieces + (longestFlags + 31) & ~31 + SnapshotBlock.integerAttributes.count * LineWriter.integerBound
            block += [UInt8](repeating: 0, count: 32)
            bytes = .allocate(capacity: block.count)
            bytes.initialize(from: block, count: block.count)
            self.ranges = .allocate(capacity: ranges.count)
            self.ranges.initialize(from: ranges, count: ranges.count)
        }

        private static func escaped(_ name: String) -> [UInt8] {
            var bytes: [UInt8] = []
            LineProtocolEncoder.appendTagText(name, into: &bytes)
            return bytes
        }
    }

    private static let table = Table()

    static func write(_ playback: borrowing PlaybackSnapshot, fields: inout FieldSeparator, to line: inout LineWriter) {
        let table = Self.table
        line.reserve(table.bound)
        let start = table.ranges[fields.wroteAny ? 1 : 0]
        fields.markWritten()
        var cursor = line.cursor
        // Written out field by field: a loop choosing the value with a switch measured 3% slower per event.
        cursor.paddedBytes(table.bytes + start.start, count: start.count)
        cursor.integer(Int64(playback.deltaPlayTime))
        piece(2, table, &cursor)
        cursor.integer(Int64(playback.countErrors))
        piece(3, table, &cursor)
        cursor.integer(Int64(playback.countStarts))
        piece(4, table, &cursor)
        cursor.integer(Int64(playback.countAds))
        piece(5, table, &cursor)
        cursor.integer(Int64(playback.accumPauseTime))
        piece(6, table, &cursor)
        cursor.integer(Int64(playback.accumBufferTime))
        piece(7, table, &cursor)
        cursor.integer(Int64(playback.accumSeekTime))
        piece(8, table, &cursor)
        cursor.integer(Int64(playback.accumPlayTime))
        var flags = playback.inPauseBlock ? 1 : 0
        if playback.inSeekBlock { flags |= 2 }
        if playback.inBufferBlock { flags |= 4 }
        if playback.inPlaybackBlock { flags |= 8 }
        if playback.inAdBreakBlock { flags |= 16 }
        if playback.inAdBlock { flags |= 32 }
        let flagText = table.ranges[Table.firstFlags + flags]
        line.advance(to: cursor)
        var flagCursor = line.cursor
        flagCursor.paddedCopy(table.bytes + flagText.start, count: flagText.count)
        line.advance(to: flagCursor)
        let names = NameTable.shared
        let wrote: Void? = playback.withTimeSinceEntries { entries, now, current, previous in
            // Room for every standard one at once, written through a cursor.
            line.reserve(entries.count * timeFieldBound)
            var cursor = line.cursor
            for index in entries.indices {
                let id = entries[index].attribute.id
                guard let time = entries[index].time(current: current, previous: previous) else { continue }
                if !names.writeFieldName(id, to: &cursor) {
                    line.advance(to: cursor)
                    writeCustomTimeSinceName(entries[index].attribute, to: &line)
                    // (The name took room of its own: make it again for this field and the ones after.)
                    line.reserve((entries.count - index) * timeFieldBound)
                    cursor = line.cursor
                }
                cursor.integer((now &- time) / 1_000_000)
                cursor.byte(UInt8(ascii: "i"))
            }
            line.advance(to: cursor)
        }
        guard wrote == nil else { return }
        // The event removed some: the general way.
        playback.forEachTimeSinceID { id, milliseconds in
            line.reserve(timeFieldBound)
            if !names.writeFieldNameInReserved(id, to: &line), let attribute = playback.timeSinceAttribute(id: id) {
                writeCustomTimeSinceName(attribute, to: &line)
                line.reserve(timeFieldBound)
            }
            line.integerInReserved(Int64(milliseconds))
            line.byteInReserved(UInt8(ascii: "i"))
        }
    }

    /// The most a time-since field takes: separator and name (copied as padded words), value, `i`.
    private static let timeFieldBound = 1 + LineWriter.overRead + LineWriter.integerBound + 1

    /// `,name=` of a custom action's time-since attribute.
    @inline(never)
    private static func writeCustomTimeSinceName(_ attribute: Attribute, to line: inout LineWriter) {
        line.byte(UInt8(ascii: ","))
        LineProtocolEncoder.writeTagText(attribute.name, to: &line)
        line.byte(UInt8(ascii: "="))
    }

    @inline(__always)
    private static func piece(_ index: Int, _ table: Table, _ cursor: inout ByteCursor) {
        let range = table.ranges[index]
        cursor.paddedBytes(table.bytes + range.start, count: range.count)
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
}
