import Foundation

/// A document's bytes, held for as long as the command reads them: a local file mapped into memory, or bytes read
/// or downloaded into memory of its own.
///
/// Mapping a regular file costs no copy and no page of fresh memory (for a 14 MB playlist, reading it into an
/// array took 7 ms of an 80 ms `inspect`; mapping it takes 0.1 ms). A mapped file that another process shrinks
/// while it is read would raise `SIGBUS`: ``LocalFile`` turns that into a one-line error instead of a crash.
final class DocumentBytes {
    /// The bytes; valid while this object lives.
    let buffer: UnsafeBufferPointer<UInt8>
    private let isMapped: Bool

    private init(buffer: UnsafeBufferPointer<UInt8>, isMapped: Bool) {
        self.buffer = buffer
        self.isMapped = isMapped
    }

    /// A copy of `bytes`.
    convenience init(copying bytes: [UInt8]) {
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = copy.initialize(from: bytes)
        self.init(buffer: UnsafeBufferPointer(copy), isMapped: false)
    }

    /// `count` bytes at `memory`: a mapping made by `mmap` (`isMapped`), or memory from
    /// `UnsafeMutableRawPointer.allocate`.
    fileprivate convenience init(_ memory: UnsafeMutableRawPointer, count: Int, isMapped: Bool) {
        self.init(buffer: UnsafeBufferPointer(start: memory.assumingMemoryBound(to: UInt8.self), count: count),
                  isMapped: isMapped)
    }

    deinit {
        guard let base = buffer.baseAddress else { return }
        if isMapped {
            munmap(UnsafeMutableRawPointer(mutating: base), buffer.count)
        } else {
            UnsafeMutableRawPointer(mutating: base).deallocate()
        }
    }
}

/// Reads a local file, at most a limit: a regular file is mapped (see ``DocumentBytes``), anything else (a pipe,
/// a device) read until its end, with no more memory than the limit for one that is too large.
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
    static func read(_ path: String, limit: Int) throws -> DocumentBytes {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        guard status.st_mode & S_IFMT != S_IFDIR else { throw ReadError.isDirectory }
        if status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 {
            guard status.st_size <= limit else { throw ReadError.tooLarge(limit: limit) }
            let size = Int(status.st_size)
            // Private and read-only: bytes appended later are not seen; populated at once, not page by page.
            if let memory = mmap(nil, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, descriptor, 0), memory != MAP_FAILED {
                MappedFileGuard.install(naming: path)
                return DocumentBytes(memory, count: size, isMapped: true)
            }
        }
        return try readToEnd(descriptor, limit: limit)
    }

    /// Standard input's bytes, read to its end; ``ReadError`` past `limit` bytes.
    static func readStandardInput(limit: Int) throws -> DocumentBytes {
        try readToEnd(STDIN_FILENO, limit: limit)
    }

    /// Reads until the end: the size of a pipe or a device is not known, and a file's is not trusted.
    private static func readToEnd(_ descriptor: Int32, limit: Int) throws -> DocumentBytes {
        // Room for one byte past the limit, reserved but not touched: pages that no byte is read into cost nothing.
        let memory = UnsafeMutableRawPointer.allocate(byteCount: limit + 1, alignment: 16)
        var count = 0
        do {
            while count <= limit {
                let result = Glibc.read(descriptor, memory + count, limit + 1 - count)
                if result < 0 {
                    if errno == EINTR { continue }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                if result == 0 { break }
                count += result
            }
            guard count <= limit else { throw ReadError.tooLarge(limit: limit) }
        } catch {
            memory.deallocate()
            throw error
        }
        return DocumentBytes(memory, count: count, isMapped: false)
    }
}

/// Turns the `SIGBUS` that reading a mapped file raises when another process shrinks it into a one-line error
/// naming the file, with exit status 1, instead of a crash.
///
/// The handler may only do what is safe in a signal handler: it writes a message prepared beforehand and exits.
private enum MappedFileGuard {
    nonisolated(unsafe) private static var message: UnsafeMutableBufferPointer<UInt8>?

    static func install(naming path: String) {
        let text = Array((PlainText.safe("Error: \(path): the file shrank while it was being read") + "\n").utf8)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.count)
        _ = buffer.initialize(from: text)
        message = buffer  // set once per command, before any byte of the mapping is read
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            if let message = MappedFileGuard.message { _ = write(2, message.baseAddress, message.count) }
            _exit(1)
        }
        sigemptyset(&action.sa_mask)
        sigaction(SIGBUS, &action, nil)
    }
}
