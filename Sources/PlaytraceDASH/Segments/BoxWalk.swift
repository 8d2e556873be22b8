/// The boxes of an ISO base media file (ISO/IEC 14496-12) at one level, walked defensively for a client that does not
/// decode: every size checked against what is left, `size == 1` (a 64-bit size), `size == 0` (to the end), a `uuid`
/// box's user type, and a limit on how many boxes are read. A malformed header ends the walk, said in ``problem``:
/// what was read before it is kept.
///
/// ```swift
/// let walk = BoxWalk(segmentBytes)
/// for box in walk.boxes where box.type == "emsg" {
///     let message = try EventMessage(box.payload(in: segmentBytes))
/// }
/// ```
public struct BoxWalk: Sendable, Hashable {
    /// One box: its type and where it lies in the bytes walked.
    public struct Box: Sendable, Hashable {
        /// The four-character type (`moof`, `emsg`…), its bytes as Latin-1 text.
        public var type: String
        /// Where the box starts, and its whole size (header included).
        public var offset: Int
        public var size: Int
        /// The header's size: 8, 16 with a 64-bit size, 16 more with a user type.
        public var headerSize: Int

        /// The range of its payload in the bytes walked.
        public var payloadRange: Range<Int> { (offset + headerSize)..<(offset + size) }

        /// Its payload.
        public func payload(in bytes: [UInt8]) -> ArraySlice<UInt8> { bytes[payloadRange] }
    }

    /// The most boxes one walk reads (a segment has a handful at its top level; a `moof` a few dozen).
    public static let maximumBoxes = 10_000

    public let boxes: [Box]
    /// Why the walk stopped before the end, if it did.
    public let problem: String?

    /// Walks the boxes of `bytes[range]` (all of `bytes` when `range` is `nil`).
    public init(_ bytes: [UInt8], range: Range<Int>? = nil) {
        let range = range ?? bytes.indices
        var boxes: [Box] = []
        var problem: String?
        var offset = range.lowerBound
        while offset < range.upperBound {
            guard boxes.count < Self.maximumBoxes else {
                problem = "more than \(Self.maximumBoxes) boxes: the rest are not read"
                break
            }
            let left = range.upperBound - offset
            guard left >= 8, let size32 = Self.uint32(bytes, offset) else {
                problem = "\(left) byte(s) at offset \(offset) are too few for a box header"
                break
            }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: Unicode.ASCII.self)
            var headerSize = 8
            var size = Int(size32)
            if size32 == 0 {
                size = left
            } else if size32 == 1 {
                guard left >= 16, let large = Self.uint64(bytes, offset + 8), large <= UInt64(Int.max) else {
                    problem = "the \(type) box at offset \(offset) has a 64-bit size that cannot be read"
                    break
                }
                headerSize = 16
                size = Int(large)
            }
            if type == "uuid" { headerSize += 16 }
            guard size >= headerSize else {
                problem = "the \(type) box at offset \(offset) is \(size) bytes, less than its header"
                break
            }
            guard size <= left else {
                problem = "the \(type) box at offset \(offset) is \(size) bytes, but only \(left) are left"
                break
            }
            boxes.append(Box(type: type, offset: offset, size: size, headerSize: headerSize))
            offset += size
        }
        self.boxes = boxes
        self.problem = problem
    }

    static func uint32(_ bytes: [UInt8], _ offset: Int) -> UInt32? {
        guard offset >= 0, offset <= bytes.count - 4 else { return nil }
        return bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    static func uint64(_ bytes: [UInt8], _ offset: Int) -> UInt64? {
        guard offset >= 0, offset <= bytes.count - 8 else { return nil }
        return bytes[offset..<(offset + 8)].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
