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
