/// A growable run of bytes that the line-protocol encoder writes into directly: a line goes into the buffer's own
/// memory, without a scratch copy or the per-append checks of an `Array`.
///
/// It is a value: copies share their memory until one of them is written to, which then takes its own.
///
/// ```swift
/// var lines = LineBuffer()
/// var cache = LineProtocolEncoder.ContextCache()
/// encoder.encode(event, timestamp: nanoseconds, into: &lines, cache: &cache)
/// let payload = lines.bytes   // what a batch sends
/// ```
public struct LineBuffer: Sendable {
    /// The memory. Only a buffer that holds the sole reference writes to it (``LineWriter`` checks), so sharing it
    /// between copies, and so between threads, only ever shares bytes that no longer change.
    final class Storage: @unchecked Sendable {
        let bytes: UnsafeMutablePointer<UInt8>
        let capacity: Int

        init(capacity: Int) {
            self.capacity = capacity
            // Not zeroed (a batch's buffer is tens of kilobytes): the writer that fills it zeroes the bytes just past
            // what it wrote, which copies a word at a time may read (``LineWriter/finish(into:)``).
            bytes = .allocate(capacity: capacity)
        }

        deinit { bytes.deallocate() }
    }

    /// The memory's owner; ``address`` and ``capacity`` repeat what it holds, so that reading the bytes counts no
    /// reference (set together, through ``adopt(_:)``; the address as a number, which is what makes it `Sendable`:
    /// the memory is only written by a buffer that holds it alone).
    private(set) var storage: Storage?
    private var address: UInt = 0
    private(set) var capacity = 0

    /// Where the bytes are.
    var base: UnsafeMutablePointer<UInt8>? { UnsafeMutablePointer(bitPattern: address) }
    /// The number of bytes written.
    public internal(set) var count = 0

    /// An empty buffer; `capacity` bytes can be written before it grows.
    public init(capacity: Int = 0) {
        if capacity > 0 { adopt(Storage(capacity: capacity)) }
    }

    /// An empty buffer that writes into `storage` (memory of an earlier buffer, no longer shared).
    init(reusing storage: Storage) {
        adopt(storage)
    }

    /// Takes memory (or none).
    mutating func adopt(_ storage: consuming Storage?) {
        address = storage.map { UInt(bitPattern: $0.bytes) } ?? 0
        capacity = storage?.capacity ?? 0
        self.storage = storage
    }

    /// Gives its memory away (the buffer is left without any).
    mutating func release() -> Storage? {
        var taken: Storage?
        swap(&taken, &storage)
        address = 0
        capacity = 0
        return taken
    }

    public var isEmpty: Bool { count == 0 }

    /// The bytes written, as an array.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// Appends the bytes written to an array.
    public func append(to array: inout [UInt8]) {
        withUnsafeBytes { array.append(contentsOf: $0) }
    }

    /// Lends the bytes written.
    public func withUnsafeBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// Appends the bytes written to a line: 32 bytes at a time (no call to a general copy) when the memory has room
    /// to be read past them, as a buffer that was written through a ``LineWriter`` has.
    func copy(to line: inout LineWriter, from start: Int = 0) {
        guard let base, count > start else { return }
        let length = count - start
        let rounded = (length + 31) & ~31
        guard start + rounded <= capacity else {
            line.bytes(UnsafeBufferPointer(start: base + start, count: length))
            return
        }
        line.reserve(rounded)
        var cursor = line.cursor
        cursor.paddedCopy(base + start, count: length)
        line.advance(to: cursor)
    }

    /// Forgets the bytes written; the memory is kept for what comes next when `keepingCapacity` (and nobody else
    /// holds it).
    public mutating func removeAll(keepingCapacity: Bool = true) {
        count = 0
        if !keepingCapacity || !isKnownUniquelyReferenced(&storage) { adopt(nil) }
    }

    /// Appends bytes.
    public mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        var writer = LineWriter(taking: &self)
        writer.bytes(bytes)
        writer.finish(into: &self)
    }

    /// Appends bytes.
    public mutating func append(contentsOf bytes: some Sequence<UInt8>) {
        if let done: Void = bytes.withContiguousStorageIfAvailable({ append(contentsOf: $0) }) { return done }
        Array(bytes).withUnsafeBufferPointer { append(contentsOf: $0) }
    }

    /// Appends a byte.
    public mutating func append(_ byte: UInt8) {
        var writer = LineWriter(taking: &self)
        writer.byte(byte)
        writer.finish(into: &self)
    }
}
