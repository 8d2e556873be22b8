/// A byte count in words, in binary units when it is a whole number of them: `64 MiB`, `1 KiB`, `300 bytes`.
///
/// ```swift
/// print("larger than \(ByteCount(64 << 20))")   // larger than 64 MiB
/// ```
public struct ByteCount: Sendable, Hashable, CustomStringConvertible {
    /// The number of bytes.
    public var bytes: Int

    public init(_ bytes: Int) { self.bytes = bytes }

    public var description: String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}
