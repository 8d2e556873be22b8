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
        // The size is a hint (a pipe or a growing file has another): reading goes on until the end, or past the limit.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(max(Int(status.st_size), 0), limit) + 1)
        var chunk = max(min(Int(status.st_size), limit) + 1, 64 << 10)
        while true {
            let start = bytes.count
            let wanted = min(chunk, limit + 1 - start)
            var failure: Int32 = 0
            bytes.append(contentsOf: repeatElement(0, count: wanted))
            let count = bytes.withUnsafeMutableBytes { buffer -> Int in
                let result = Glibc.read(descriptor, buffer.baseAddress! + start, wanted)
                if result < 0 { failure = errno }
                return result
            }
            if count < 0 {
                if failure == EINTR {
                    bytes.removeLast(wanted)
                    continue
                }
                throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO)
            }
            bytes.removeLast(wanted - count)
            if bytes.count > limit { throw ReadError.tooLarge(limit: limit) }
            if count == 0 { return bytes }
            chunk = 64 << 10
        }
    }
}
