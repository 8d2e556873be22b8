import PlaytraceCore

/// A segment index (`sidx`, ISO/IEC 14496-12 8.16.3): how a file addressed by `SegmentBase` divides into segments,
/// each a byte range of the file with its duration. A player reads it from the bytes `SegmentBase@indexRange` names,
/// before it can fetch any segment (dash.js, Shaka and ExoPlayer all do).
///
/// ```swift
/// // bytes: the file's bytes from 896 to 1,199, as `indexRange="896-1199"` names them.
/// let index = try SegmentIndexBox(bytes, fileOffset: 896)
/// for reference in index.references { print(reference.range, reference.duration) }
/// ```
public struct SegmentIndexBox: Sendable, Hashable {
    /// One subsegment: its bytes in the file and its duration.
    public struct Reference: Sendable, Hashable {
        /// The subsegment's bytes, as offsets in the file.
        public var range: ByteRange
        /// Its duration, in ``SegmentIndexBox/timescale`` ticks.
        public var duration: Int64
        /// Whether it starts with a stream access point (`starts_with_SAP`).
        public var startsWithSAP: Bool
    }

    /// The ticks per second of the durations and times.
    public var timescale: Int64
    /// The presentation time of the first subsegment, in ticks.
    public var earliestPresentationTime: Int64
    public var references: [Reference]

    /// Why the index cannot be read.
    public struct ReadError: Error, Sendable, Hashable, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// Reads the first `sidx` box of `bytes`, which are the file's from `fileOffset` on.
    ///
    /// An index that references other indexes (`reference_type` 1, a hierarchy) is refused: it says nothing of the
    /// media until those are read. Every field is checked against what is left and every offset against overflow.
    public init(_ bytes: [UInt8], fileOffset: Int64) throws(ReadError) {
        guard fileOffset >= 0 else { throw ReadError("the index starts at a negative offset") }
        guard let box = BoxWalk(bytes).boxes.first(where: { $0.type == "sidx" }) else {
            throw ReadError("no sidx box in the \(bytes.count) bytes of the index range")
        }
        var cursor = box.payloadRange.lowerBound
        let end = box.payloadRange.upperBound
        func read(_ width: Int) throws(ReadError) -> UInt64 {
            guard end - cursor >= width else { throw ReadError("the sidx box ends inside its fields") }
            let value = bytes[cursor..<(cursor + width)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            cursor += width
            return value
        }
        let version = try read(1)
        _ = try read(3)  // flags
        _ = try read(4)  // reference_ID
        let timescale = try read(4)
        guard timescale > 0 else { throw ReadError("the sidx timescale is 0") }
        let wide = version >= 1 ? 8 : 4
        let earliest = try read(wide)
        let firstOffset = try read(wide)
        _ = try read(2)  // reserved
        let count = Int(try read(2))
        guard earliest <= UInt64(Int64.max), firstOffset <= UInt64(Int64.max) else {
            throw ReadError("the sidx times or offsets pass 2^63")
        }
        // The first subsegment starts first_offset bytes after the box's end, counted in the file.
        guard let boxEnd = fileOffset.addingChecked(Int64(box.offset + box.size)),
              var position = boxEnd.addingChecked(Int64(firstOffset)) else {
            throw ReadError("the sidx offsets pass 2^63")
        }
        var references: [Reference] = []
        references.reserveCapacity(count)
        for index in 0..<count {
            let sizeField = try read(4)
            let duration = try read(4)
            let sap = try read(4)
            guard sizeField & 0x8000_0000 == 0 else {
                throw ReadError("reference \(index + 1) points at another index (a hierarchy of indexes is not read)")
            }
            let size = Int64(sizeField & 0x7FFF_FFFF)
            guard size > 0, let next = position.addingChecked(size) else {
                throw ReadError("reference \(index + 1) has \(size) bytes or ends past 2^63")
            }
            references.append(Reference(range: ByteRange(first: position, last: next - 1), duration: Int64(duration),
                                        startsWithSAP: sap & 0x8000_0000 != 0))
            position = next
        }
        guard !references.isEmpty else { throw ReadError("the sidx lists no subsegment") }
        self.timescale = Int64(timescale)
        earliestPresentationTime = Int64(earliest)
        self.references = references
    }
}
