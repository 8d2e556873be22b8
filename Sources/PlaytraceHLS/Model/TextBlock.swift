/// UTF-8 text of one parse, appended in order and never changed once written: the segments' and variants' URIs
/// (``SegmentURI``) keep where their bytes are in it instead of a `String` each.
///
/// A value reads only its own range, written before the value existed, so sharing a block between threads is safe
/// once the parse that fills it has returned (the parser alone appends, before anything else can see the block).
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
    func append(_ text: UnsafeBufferPointer<UInt8>) -> UInt32? {
        guard text.count <= room else { return nil }
        if let source = text.baseAddress { (bytes + count).initialize(from: source, count: text.count) }
        let offset = count
        count += text.count
        return UInt32(offset)
    }

    /// Sets aside `count` bytes to be written with ``store(_:at:)``, and returns their offset; `nil` when the block
    /// has no room left for them.
    func reserve(_ count: Int) -> UInt32? {
        guard count <= room else { return nil }
        let offset = self.count
        self.count += count
        return UInt32(offset)
    }

    /// Writes a number's bytes at `offset`, in bytes set aside by ``reserve(_:)``.
    func store<Number: FixedWidthInteger>(_ number: Number, at offset: Int) {
        precondition(offset >= 0 && offset + MemoryLayout<Number>.size <= count, "a store past the bytes set aside")
        UnsafeMutableRawPointer(bytes + offset).storeBytes(of: number, as: Number.self)
    }

    /// Reads a number stored at `offset`.
    func load<Number: FixedWidthInteger>(_: Number.Type, at offset: Int) -> Number {
        UnsafeRawPointer(bytes + offset).loadUnaligned(as: Number.self)
    }

    /// The `count` bytes from `offset`.
    func bytes(at offset: Int, count: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: bytes + offset, count: count)
    }
}
