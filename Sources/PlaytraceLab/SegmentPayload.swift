import NIOCore

/// Synthetic segment bytes: as many as the variant's bit rate needs for the segment's duration, starting with a
/// readable header so that a captured segment says what it is.
enum SegmentPayload {
    static func bytes(path: String, size: Int) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: size)
        let header = Array("PLAYTRACE-LAB \(path)\n".utf8.prefix(size))
        buffer.writeBytes(header)
        buffer.writeRepeatingByte(0x47, count: size - header.count)  // 0x47: the MPEG-TS sync byte
        return buffer
    }
}
