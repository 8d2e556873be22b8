import CompressNIO
import NIOCore

/// gzip compression of request bodies (InfluxDB, New Relic), through compress-nio (zlib).
public enum Gzip {
    /// The gzip-compressed bytes.
    public static func compress(_ bytes: [UInt8]) throws -> [UInt8] {
        var buffer = ByteBuffer(bytes: bytes)
        let compressed = try buffer.compress(with: .gzip(), allocator: ByteBufferAllocator())
        return Array(compressed.readableBytesView)
    }

    /// The decompressed bytes (for receivers in tests, and to check a payload).
    public static func decompress(_ bytes: [UInt8]) throws -> [UInt8] {
        var buffer = ByteBuffer(bytes: bytes)
        let decompressed = try buffer.decompress(with: .gzip(), allocator: ByteBufferAllocator())
        return Array(decompressed.readableBytesView)
    }
}
