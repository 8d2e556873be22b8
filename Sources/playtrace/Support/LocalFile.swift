import Foundation

/// Reads a local document (a playlist, a VAST response, ad metadata), at most a limit: a regular file larger than the
/// limit is refused before a byte is read; anything else (a pipe, a device, standard input) is read in chunks until
/// its end, and refused as soon as it passes the limit, so that no more than the limit is ever held.
enum LocalFile {
    enum ReadError: Error, CustomStringConvertible {
        case tooLarge(limit: Int)
        case isDirectory

        var description: String {
            switch self {
            case .tooLarge(let limit): "the file holds more than \(limit) bytes, the most read"
            case .isDirectory: "it is a directory, not a file"
            }
        }
    }

    /// The size of each read.
    static let chunkSize = 1 << 20

    /// The file's bytes; ``ReadError`` when it is a directory or holds more than `limit` bytes, the system's error
    /// when it cannot be opened.
    static func read(_ path: String, limit: Int) throws -> [UInt8] {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw ReadError.isDirectory
        }
        // What the system refuses (no such file, no permission) is thrown as it says it.
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        if attributes?[.type] as? FileAttributeType == .typeRegular,
           let size = (attributes?[.size] as? NSNumber)?.intValue, size > limit {
            throw ReadError.tooLarge(limit: limit)
        }
        return try readToEnd(handle, limit: limit)
    }

    /// Standard input's bytes, read to its end; ``ReadError`` past `limit` bytes.
    static func readStandardInput(limit: Int) throws -> [UInt8] {
        try readToEnd(FileHandle.standardInput, limit: limit)
    }

    /// Reads until the end: the size of a pipe or a device is not known, and a file's may change while it is read.
    private static func readToEnd(_ handle: FileHandle, limit: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        while let chunk = try handle.read(upToCount: min(chunkSize, limit + 1 - bytes.count)), !chunk.isEmpty {
            bytes.append(contentsOf: chunk)
            guard bytes.count <= limit else { throw ReadError.tooLarge(limit: limit) }
        }
        return bytes
    }
}
