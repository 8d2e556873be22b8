import PlaytraceCore
import PlaytraceTelemetry

/// Writes a whole playback snapshot as fields, as one block: the counters and accumulated times (names and
/// separators copied from a table, values written between them), the six block flags (one of 64 prepared texts),
/// then the time since each earlier action. For encoders whose only snapshot tag is the playback id, and events
/// whose own attributes replace none of the snapshot's.
enum SnapshotBlock {
    /// The texts, in a table that lives as long as the process: the first field's start after a space and after
    /// a comma, each following field's start after the previous value (`i,name=`), and the 64 flag texts
    /// (`i,inPauseBlock=false,…`).
    final class Table: Sendable {
        let texts: PaddedTable
        /// Where the flag texts begin among the pieces.
        static let firstFlags = 1 + SnapshotBlock.integerAttributes.count
        /// The most the counters, times and flags take: each text (as the padded copy writes it) and each value.
        let bound: Int

        init() {
            var pieces: [[UInt8]] = []
            // " name=" and ",name=" for the first field; then "i,name=" for the others.
            let first = SnapshotBlock.integerAttributes[0].name
            pieces.append(Array(" ".utf8) + Self.escaped(first) + Array("=".utf8))
            pieces.append(Array(",".utf8) + Self.escaped(first) + Array("=".utf8))
            for attribute in SnapshotBlock.integerAttributes.dropFirst() {
                pieces.append(Array("i,".utf8) + Self.escaped(attribute.name) + Array("=".utf8))
            }
            for flags in 0..<64 {
                var text = Array("i".utf8)
                for (bit, attribute) in SnapshotBlock.flagAttributes.enumerated() {
                    text += Array(",".utf8) + Self.escaped(attribute.name) + Array("=".utf8)
                    text += Array((flags & (1 << bit) != 0 ? "true" : "false").utf8)
                }
                pieces.append(text)
            }
            // The field starts are copied a padded vector pair at a time: a standard name long enough to break that
            // stops the process here, at start-up, not a line later.
            precondition(pieces[..<Self.firstFlags].allSatisfy { $0.count <= LineWriter.overRead },
                         "a snapshot field name longer than \(LineWriter.overRead - 4) bytes")
            let longestFlags = pieces[Self.firstFlags...].map(\.count).max() ?? 0
            texts = PaddedTable(pieces, limit: max(longestFlags, LineWriter.overRead))
            // (The flag text is copied 32 bytes at a time: room for its count rounded up.)
            bound = Self.firstFlags * LineWriter.overRead + (longestFlags + 31) & ~31
                + SnapshotBlock.integerAttributes.count * LineWriter.integerBound
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
        var cursor = line.cursor
        piece(fields.wroteAny ? 1 : 0, table, &cursor)
        fields.markWritten()
        let flags = writeIntegers(playback, table, &cursor)
        cursor.longPiece(Table.firstFlags + flags, of: table.texts)
        line.advance(to: cursor)
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
    static func piece(_ index: Int, _ table: Table, _ cursor: inout ByteCursor) {
        cursor.piece(index, of: table.texts)
    }
}
