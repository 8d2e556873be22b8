/// A segment's URI as UTF-8 bytes in a block shared by the segments of one parse.
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
    private let block: SegmentURIBlock
    private let offset: UInt32
    private let count: UInt32

    /// A URI in a block of its own.
    init(_ text: String) {
        var text = text
        // (Only a text past the 4 GB a block can hold finds no room.)
        self = text.withUTF8 { SegmentURIBlock.make(capacity: $0.count).append($0) }
            ?? SegmentURI(block: .make(capacity: 0), offset: 0, count: 0)
    }

    fileprivate init(block: SegmentURIBlock, offset: UInt32, count: UInt32) {
        self.block = block
        self.offset = offset
        self.count = count
    }

    /// Calls `body` with the URI's bytes.
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: block.start(at: offset), count: Int(count)))
    }

    /// Whether both URIs are kept in the same block.
    func sharesBlock(with other: SegmentURI) -> Bool { block === other.block }

    /// The URI as a `String` (the bytes are UTF-8: the parser stores only validated text).
    var string: String { withBytes { String(decoding: $0, as: UTF8.self) } }

    static func == (lhs: SegmentURI, rhs: SegmentURI) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.block === rhs.block, lhs.offset == rhs.offset { return true }
        return lhs.withBytes { left in rhs.withBytes { right in left.elementsEqual(right) } }
    }

    func hash(into hasher: inout Hasher) {
        withBytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
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

/// The bytes of many segments' URIs, appended in order and never changed once written: a segment reads only its
/// own range, written before the segment existed, so sharing a block between threads is safe once the parse that
/// fills it has returned (the parser alone appends, before anything else can see the block).
final class SegmentURIBlock: @unchecked Sendable {
    /// The most a block holds: offsets and counts are 32-bit.
    static let maximumCapacity = Int(UInt32.max)

    private let bytes: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var count = 0

    private init(capacity: Int) {
        self.capacity = capacity
        bytes = .allocate(capacity: capacity)
    }

    deinit { bytes.deallocate() }

    /// An empty block with room for `capacity` bytes (at most ``maximumCapacity``); pages that no byte is written
    /// to cost nothing.
    static func make(capacity: Int) -> SegmentURIBlock {
        SegmentURIBlock(capacity: min(max(capacity, 1), maximumCapacity))
    }

    /// Appends `text` and returns where it is, or `nil` when the block has no room left for it.
    func append(_ text: UnsafeBufferPointer<UInt8>) -> SegmentURI? {
        guard text.count <= capacity - count else { return nil }
        if let source = text.baseAddress { (bytes + count).initialize(from: source, count: text.count) }
        let offset = count
        count += text.count
        return SegmentURI(block: self, offset: UInt32(offset), count: UInt32(text.count))
    }

    /// The bytes from `offset`.
    func start(at offset: UInt32) -> UnsafePointer<UInt8> { UnsafePointer(bytes + Int(offset)) }
}
