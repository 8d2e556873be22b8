import PlaytraceCore

/// UTF-8 text of one parse, appended in order and never changed once written: the segments' and variants' URIs
/// (``SegmentURI``) keep where their bytes are in it instead of a `String` each.
///
/// Invariant (this file's unsafe code: memory allocated once, at the size the whole input needs, so that pages no
/// byte is written to cost nothing): ``append(_:)`` writes only below `capacity`, and ``withBytes(at:count:_:)``
/// lends only bytes below `count`, which were written before the value that asks for them existed. Sharing a block
/// between threads is therefore safe once the parse that fills it has returned (the parser alone appends, before
/// anything else can see the block).
final class TextBlock: @unchecked Sendable {
    /// The most a block holds: offsets and counts are 32-bit.
    static let maximumCapacity = Int(UInt32.max)

    private let bytes: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private(set) var count = 0

    private init(capacity: Int) {
        self.capacity = capacity
        bytes = .allocate(capacity: capacity)
    }

    deinit { bytes.deallocate() }

    /// An empty block with room for `capacity` bytes (at most ``maximumCapacity``); pages that no byte is written
    /// to cost nothing.
    static func make(capacity: Int) -> TextBlock {
        TextBlock(capacity: min(max(capacity, 1), maximumCapacity))
    }

    /// The bytes that can still be appended.
    var room: Int { capacity - count }

    /// Appends `text` and returns its offset, or `nil` when the block has no room left for it.
    func append(_ text: Span<UInt8>) -> UInt32? {
        guard text.count <= room else { return nil }
        text.withUnsafeBufferPointer { source in
            if let start = source.baseAddress { (bytes + count).initialize(from: start, count: source.count) }
        }
        let offset = count
        count += text.count
        return UInt32(offset)
    }

    /// Lends the `length` bytes from `offset`, which must have been appended.
    func withBytes<Result>(at offset: Int, count length: Int, _ body: (Span<UInt8>) throws -> Result) rethrows -> Result {
        precondition(offset >= 0 && length >= 0 && offset + length <= count, "bytes outside the block's text")
        return try body(Span(_unsafeStart: bytes + offset, count: length))
    }
}
