import PlaytraceCore

/// A segment's (or a variant's) URI as UTF-8 bytes in a block shared by the segments of one parse.
///
/// A media playlist holds one URI per segment, and a `String` per URI costs an allocation each (a long live
/// playlist: 100,000 of them, a fifth of the time `playtrace inspect` spent on it). The parser copies each URI line
/// into one block sized for the whole input instead, and a segment keeps where its bytes are: as small as a
/// `String` (a reference and two 32-bit numbers), and a copy of the segment retains the block as it would have
/// retained the string. ``Segment/uri`` makes the `String` when it is read.
///
/// The block stays alive while any segment of the parse does; a URI set from a `String` gets a block of its own.
/// Equality and hashing are by bytes.
struct SegmentURI: Sendable, Hashable {
    private let block: TextBlock
    private let offset: UInt32
    private let count: UInt32

    /// A URI in a block of its own.
    init(_ text: String) {
        var text = text
        // (Only a text past the 4 GB a block can hold finds no room.)
        self = text.withUTF8Span { TextBlock.make(capacity: $0.count).appendURI($0) }
            ?? SegmentURI(block: .make(capacity: 0), offset: 0, count: 0)
    }

    /// The empty URI: a variant's until its URI line is read.
    static let none = SegmentURI("")

    init(block: TextBlock, offset: UInt32, count: UInt32) {
        self.block = block
        self.offset = offset
        self.count = count
    }

    /// Calls `body` with the URI's bytes.
    func withBytes<Result>(_ body: (Span<UInt8>) throws -> Result) rethrows -> Result {
        try block.withBytes(at: Int(offset), count: Int(count), body)
    }

    /// Whether both URIs are kept in the same block.
    func sharesBlock(with other: SegmentURI) -> Bool { block === other.block }

    /// The URI as a `String` (the bytes are UTF-8: the parser stores only validated text).
    var string: String { withBytes { ByteScanning.string($0) } }

    static func == (lhs: SegmentURI, rhs: SegmentURI) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.block === rhs.block, lhs.offset == rhs.offset { return true }
        return lhs.withBytes { left in rhs.withBytes { right in ByteScanning.equal(left, right) } }
    }

    func hash(into hasher: inout Hasher) {
        withBytes { $0.hash(into: &hasher) }
    }
}

extension SegmentURI: Codable {
    init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(string)
    }
}

extension TextBlock {
    /// Appends `text` and returns where it is, or `nil` when the block has no room left for it.
    func appendURI(_ text: Span<UInt8>) -> SegmentURI? {
        append(text).map { SegmentURI(block: self, offset: $0, count: UInt32(text.count)) }
    }
}
