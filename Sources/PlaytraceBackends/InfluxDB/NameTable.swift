import PlaytraceCore
import PlaytraceTelemetry

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
        // Names are copied a padded word group at a time: one too long for that stops the process here, at
        // start-up (custom names, of any length, are escaped as they are written and never come from this table).
        precondition((ranges + actionRanges).allSatisfy { $0.count <= LineWriter.overRead },
                     "a standard attribute or action name longer than \(LineWriter.overRead - 2) bytes")
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
