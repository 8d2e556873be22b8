import Foundation

/// Reads a local file into bytes, at most a limit: one read into the array the parser takes (no `Data` to copy),
/// and no more memory than the limit for a file that is too large.
enum LocalFile {
    enum ReadError: Error, CustomStringConvertible {
        case tooLarge(limit: Int)
        case isDirectory

        var description: String {
            switch self {
            case .tooLarge(let limit): "the file holds more than \(limit) bytes, the most a playlist may hold"
            case .isDirectory: "it is a directory, not a file"
            }
        }
    }

    /// The file's bytes; throws `POSIXError` for what the system refuses, ``ReadError`` past `limit` bytes.
    static func read(_ path: String, limit: Int) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        guard status.st_mode & S_IFMT != S_IFDIR else { throw ReadError.isDirectory }
        // Room for one byte past the limit, reserved but not touched: pages that no byte is read into cost nothing.
        // The file's size is not trusted (a pipe has none, a file can grow): reading goes on until the end.
        let bytes = try [UInt8](unsafeUninitializedCapacity: limit + 1) { buffer, count in
            count = 0
            while count <= limit {
                let result = Glibc.read(descriptor, buffer.baseAddress! + count, limit + 1 - count)
                if result < 0 {
                    if errno == EINTR { continue }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                if result == 0 { return }
                count += result
            }
        }
        guard bytes.count <= limit else { throw ReadError.tooLarge(limit: limit) }
        return bytes
    }
}
