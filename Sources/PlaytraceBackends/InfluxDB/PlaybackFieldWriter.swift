import PlaytraceCore
import PlaytraceTelemetry

/// Writes the playback snapshot's state attributes as fields, straight from its properties.
struct PlaybackFieldWriter {
    /// Which to write, by standard slot.
    let slots: UInt64
    let names: NameTable

    /// The most one field takes: separator and name (copied as padded words), value, `i`.
    private static let fieldBound = 1 + LineWriter.overRead + LineWriter.integerBound + 1

    func write(_ playback: borrowing PlaybackSnapshot, fields: inout FieldSeparator, to line: inout LineWriter) {
        // Room for all the numbers and flags at once, instead of a check per byte written.
        line.reserve(Self.fieldBound * PlaybackSnapshot.stateAttributes.count)
        writeStateFields(playback, fields: &fields, to: &line)
    }

    @inline(__always)
    func identifier(_ id: UInt32, _ value: PlaybackIdentifier?, _ fields: inout FieldSeparator,
                    _ line: inout LineWriter) {
        guard slots & (1 << UInt64(id)) != 0, let value else { return }
        _ = names.writeFieldStart(id, fields: &fields, to: &line)
        LineProtocolEncoder.writeField(of: AttributeList.Entry(attribute: .playbackId, value: .string(value.description)),
                                       to: &line)
        // (Written apart from the reserved room: make it again for the fields after.)
        line.reserve(Self.fieldBound * PlaybackSnapshot.stateAttributes.count)
    }

    @inline(__always)
    func integer(_ id: UInt32, _ value: Int, _ fields: inout FieldSeparator, _ line: inout LineWriter) {
        guard slots & (1 << UInt64(id)) != 0 else { return }
        names.writeFieldStartInReserved(id, fields: &fields, to: &line)
        line.integerInReserved(Int64(value))
        line.byteInReserved(UInt8(ascii: "i"))
    }

    @inline(__always)
    func boolean(_ id: UInt32, _ value: Bool, _ fields: inout FieldSeparator, _ line: inout LineWriter) {
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
