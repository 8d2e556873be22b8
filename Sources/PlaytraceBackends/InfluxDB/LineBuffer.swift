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
            bytes = .allocate(capacity: capacity)
        }

        deinit { bytes.deallocate() }
    }

    var storage: Storage?
    /// The number of bytes written.
    public internal(set) var count = 0

    /// An empty buffer; `capacity` bytes can be written before it grows.
    public init(capacity: Int = 0) {
        if capacity > 0 { storage = Storage(capacity: capacity) }
    }

    public var isEmpty: Bool { count == 0 }

    /// The bytes written, as an array.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// Lends the bytes written.
    public func withUnsafeBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: storage?.bytes, count: count))
    }

    /// Forgets the bytes written; the memory is kept for what comes next when `keepingCapacity` (and nobody else
    /// holds it).
    public mutating func removeAll(keepingCapacity: Bool = true) {
        count = 0
        if !keepingCapacity || !isKnownUniquelyReferenced(&storage) { storage = nil }
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
