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
    var tagMasks: (UInt64, UInt64)
    /// Whether a custom attribute (outside the slots) is a tag.
    var hasCustomTags: Bool
    /// Identifies the tag attributes for caches of what the encoder wrote.
    var tagChoice = TagKey.next()
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
    func isTag(_ entry: borrowing AttributeList.Entry) -> Bool {
        guard Attribute.standardSlot(of: entry.attribute.id) != nil || hasCustomTags else { return false }
        return isTag(entry.attribute)
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
        lines.append(to: &buffer)
    }

    /// Appends an event's line (with its line feed), reusing what `cache` holds of the event's context (its tags
    /// and fields are encoded once for all the events that share it).
    public func encode(_ event: Event, timestamp: Int64, into buffer: inout LineBuffer, cache: inout ContextCache) {
        guard event.isContextUnshadowed, Self.isWritableAction(event.action) else {
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
    /// receives them together (`Backend.send(_:metrics:)`) calls. `timestamp` gives each line's timestamp from its
    /// date, in that order (a backend makes them unique).
    public func encode(_ event: Event, metrics: [Metric], into buffer: inout LineBuffer, cache: inout ContextCache,
                       timestamp: (StreamDate) -> Int64) {
        var line = LineWriter(taking: &buffer)
        // Each metric read where it is (an element taken out of the array would be copied: a retain and a release
        // of its dimensions per line).
        for index in metrics.indices {
            writeMetricLine(metrics[index], timestamp: timestamp(metrics[index].date), cache: &cache, to: &line)
        }
        let eventTimestamp = timestamp(event.date)
        if event.isContextUnshadowed, Self.isWritableAction(event.action) {
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
            for index in entries.indices where !isTag(entries[index]) && Self.isWritableName(entries[index].attribute) {
                if case .int(let value) = entries[index].value, fields.wroteAny {
                    line.reserve(LineWriter.overRead + LineWriter.integerBound + 1)
                    var cursor = line.cursor
                    if names.writeFieldName(entries[index].attribute.id, to: &cursor) {
                        cursor.integer(Int64(value))
                        cursor.byte(UInt8(ascii: "i"))
                        line.advance(to: cursor)
                        continue
                    }
                }
                if !names.writeFieldStart(entries[index].attribute.id, fields: &fields, to: &line) {
                    fields.write(to: &line)
                    Self.writeName(of: entries[index], to: &line)
                    line.byte(UInt8(ascii: "="))
                }
                Self.writeField(of: entries[index], to: &line)
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
        let entry = AttributeList.Entry(attribute: attribute, value: value)
        if asTag {
            writeTag(entry, to: &line)
        } else {
            fields.write(to: &line)
            Self.writeName(of: entry, to: &line)
            line.byte(UInt8(ascii: "="))
            Self.writeField(of: entry, to: &line)
        }
    }

    /// Writes an event whose attributes are all in one list.
    private func encodeFlat(_ event: Event, attributes: AttributeList, timestamp: Int64,
                            into buffer: inout LineBuffer) {
        var line = LineWriter(taking: &buffer)
        Self.writeMeasurement(eventMeasurement, to: &line)
        if Self.isWritableAction(event.action) {
            line.ascii(",action=")
            Self.writeTagText(event.action.name, to: &line)
        }
        var fields = FieldSeparator()
        writeEntries(of: attributes, tags: true, fields: &fields, to: &line)
        writeEntries(of: attributes, tags: false, fields: &fields, to: &line)
        if !fields.wroteAny { line.ascii(" count=1i") }
        line.byte(UInt8(ascii: " "))
        line.integer(timestamp)
        line.byte(UInt8(ascii: "\n"))
        line.finish(into: &buffer)
    }
}
