import PlaytraceCore
import PlaytraceTelemetry

/// The standard attributes' and actions' names, escaped for the line protocol once, in a table that lives as long
/// as the process (read on every field of every line).
///
/// Each attribute's name is stored as a field's prefix, `,name=` (and ` name=` for a line's first field), so that a
/// field's start is one padded copy (``LineWriter/piece(_:of:)``).
final class NameTable: Sendable {
    static let shared = NameTable()

    private let table: PaddedTable
    /// For each standard slot: the indices of its `,name=` and ` name=` pieces and of its bare name, `-1` for none.
    private let slots: [(comma: Int, space: Int, bare: Int)]
    /// Where the standard actions' names are, by index.
    private let actionStart: Int
    private let actionCount: Int
    private let trueIndex: Int

    private init() {
        var pieces: [[UInt8]] = []
        var slots = [(comma: Int, space: Int, bare: Int)](repeating: (-1, -1, -1), count: 128)
        for attribute in Attribute.allStandard {
            guard let slot = Attribute.standardSlot(of: attribute.id) else { continue }
            var name: [UInt8] = []
            LineProtocolEncoder.appendTagText(attribute.name, into: &name)
            slots[slot] = (pieces.count, pieces.count + 1, pieces.count + 2)
            pieces += [[UInt8(ascii: ",")] + name + [UInt8(ascii: "=")], [UInt8(ascii: " ")] + name + [UInt8(ascii: "=")],
                       name]
        }
        actionStart = pieces.count
        for action in Action.standard {
            var name: [UInt8] = []
            LineProtocolEncoder.appendTagText(action.name, into: &name)
            pieces.append(name)
        }
        actionCount = Action.standard.count
        trueIndex = pieces.count
        pieces += [Array("true".utf8), Array("false".utf8)]
        // Names are copied a padded vector pair at a time: custom names, of any length, are escaped as they are
        // written and never come from this table.
        table = PaddedTable(pieces, limit: LineWriter.overRead)
        self.slots = slots
    }

    /// Writes the escaped name of a standard attribute; `false` (nothing written) for a custom one.
    @inline(__always)
    func writeName(_ id: UInt32, to line: inout LineWriter) -> Bool {
        guard let slot = Attribute.standardSlot(of: id), slots[slot].bare >= 0 else { return false }
        line.piece(slots[slot].bare, of: table)
        return true
    }

    /// Writes the start of a standard attribute's field (`,name=`, or ` name=` for a line's first field);
    /// `false` for a custom attribute.
    @inline(__always)
    func writeFieldStart(_ id: UInt32, fields: inout FieldSeparator, to line: inout LineWriter) -> Bool {
        guard let slot = Attribute.standardSlot(of: id), slots[slot].comma >= 0 else { return false }
        line.piece(fields.wroteAny ? slots[slot].comma : slots[slot].space, of: table)
        fields.markWritten()
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
        guard let slot = Attribute.standardSlot(of: id), slots[slot].comma >= 0 else { return false }
        cursor.piece(slots[slot].comma, of: table)
        return true
    }

    /// Writes an action's name, escaped as a tag value.
    @inline(__always)
    func writeActionName(_ action: Action, to line: inout LineWriter) {
        guard let index = action.standardIndex, index < actionCount else {
            LineProtocolEncoder.writeTagText(action.name, to: &line)
            return
        }
        line.piece(actionStart + index, of: table)
    }

    /// Writes the start of a standard attribute's field, room for ``LineWriter/overRead`` + 1 bytes having been
    /// reserved (the caller knows it is standard).
    @inline(__always)
    func writeFieldStartInReserved(_ id: UInt32, fields: inout FieldSeparator, to line: inout LineWriter) {
        guard let slot = Attribute.standardSlot(of: id), slots[slot].comma >= 0 else { return }
        line.pieceInReserved(fields.wroteAny ? slots[slot].comma : slots[slot].space, of: table)
        fields.markWritten()
    }

    /// Writes `true` or `false`, room for ``LineWriter/overRead`` bytes having been reserved.
    @inline(__always)
    func writeBooleanInReserved(_ value: Bool, to line: inout LineWriter) {
        line.pieceInReserved(value ? trueIndex : trueIndex + 1, of: table)
    }
}
