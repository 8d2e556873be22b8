public import Foundation

#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

/// Writes a file whole: to a new temporary file beside it, then renamed over it.
///
/// A reader sees the old file or the new one, never a torn one: a signal, a crash or a full disk while writing
/// leaves the old file as it was (and the temporary one removed, where the process lives to do it). The temporary
/// file is created exclusively (`O_EXCL`, so nothing planted at its name is followed) with the permissions asked
/// for. It is not forced to the disk before the rename (`fsync`): what this guards against is a process ended
/// mid-write, not a power cut, and a flush per summary stalls every other writer of the file system on a loaded
/// machine.
///
/// ```swift
/// try AtomicFile.write(Data(json.utf8), to: "summary.json")
/// try AtomicFile.write(secrets, to: "state.db", permissions: 0o600)   // private from its first byte
/// ```
public enum AtomicFile {
    /// The permissions of files that hold nothing private (before the process's umask).
    public static let publicPermissions: mode_t = 0o644
    /// The permissions of files that hold private data: the owner alone reads them.
    public static let privatePermissions: mode_t = 0o600

    /// Writes `data` to `path` whole; throws the system's error, leaving `path` untouched, when it cannot.
    ///
    /// A file replaced keeps its own permissions, unless `permissions` are ``privatePermissions``: a private file
    /// is private whatever was there before.
    public static func write(_ data: Data, to path: String, permissions: mode_t = publicPermissions) throws {
        let draft = try Draft(path: path, permissions: permissions)
        do {
            try draft.append(data)
        } catch {
            draft.discard()
            throw error
        }
        try draft.commit()
    }

    /// Writes `text` as UTF-8 to `path` whole (see ``write(_:to:permissions:)``).
    public static func write(_ text: String, to path: String, permissions: mode_t = publicPermissions) throws {
        try write(Data(text.utf8), to: path, permissions: permissions)
    }

    /// Creates a new file that nobody else can have planted or read: a fresh name in `directory` made from `prefix`
    /// and `suffix` (`prefix-XXXXXXXX.suffix`), created exclusively with owner-only permissions. Returns its path.
    public static func createPrivate(in directory: String, prefix: String, suffix: String) throws -> String {
        for _ in 0..<16 {
            let path = directory + "/" + prefix + "-" + String(UInt32.random(in: .min ... .max), radix: 16) + suffix
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, privatePermissions)
            if descriptor >= 0 {
                close(descriptor)
                return path
            }
            guard errno == EEXIST else { break }
        }
        throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}

extension AtomicFile {
    /// A file written in parts and put in place whole: the parts go to a new temporary file beside `path`, which
    /// ``commit()`` renames over it; ``discard()`` (or a process that ends before the commit) leaves `path` as it
    /// was. For files written over a whole session, such as a JSON Lines log.
    ///
    /// ```swift
    /// let draft = try AtomicFile.Draft(path: "events.jsonl", keepingContents: true)   // appends to what is there
    /// try draft.append(Array("{\"action\":\"Start\"}\n".utf8))
    /// try draft.commit()
    /// ```
    public final class Draft: Sendable {
        /// The file the draft replaces.
        public let path: String
        private let state: Locked<State>

        private struct State {
            let handle: FileHandle
            let temporary: String
            var ended = false
        }

        /// Creates the temporary file beside `path`, exclusively.
        /// - Parameters:
        ///   - path: the file the draft replaces when it is committed.
        ///   - permissions: the new file's; a file replaced keeps its own, unless they are
        ///     ``AtomicFile/privatePermissions``.
        ///   - keepingContents: whether the draft starts with what `path` holds now (the parts are then appended to
        ///     it).
        public init(path: String, permissions: mode_t = AtomicFile.publicPermissions, keepingContents: Bool = false) throws {
            var existing = stat()
            let exists = stat(path, &existing) == 0 && (existing.st_mode & S_IFMT) == S_IFREG
            let kept = exists && permissions != AtomicFile.privatePermissions ? existing.st_mode & 0o777 : nil
            let url = URL(fileURLWithPath: path)
            let directory = url.deletingLastPathComponent().path
            let name = url.lastPathComponent
            var temporary = ""
            var descriptor: Int32 = -1
            // A fresh name each try: one already there (left by another process) is never opened.
            for _ in 0..<16 {
                temporary = directory + "/." + name + ".\(getpid()).\(UInt32.random(in: .min ... .max)).tmp"
                descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
                if descriptor >= 0 || errno != EEXIST { break }
            }
            guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            if let kept { fchmod(descriptor, kept) }  // the replaced file's own mode; a new one's is `open`'s, less the umask
            self.path = path
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
            state = Locked(State(handle: handle, temporary: temporary))
            if keepingContents, exists {
                do {
                    let source = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
                    defer { try? source.close() }  // read-only: nothing to lose at its close
                    while let chunk = try source.read(upToCount: 64 << 10), !chunk.isEmpty {
                        try handle.write(contentsOf: chunk)
                    }
                } catch {
                    discard()
                    throw error
                }
            }
        }

        deinit { discard() }

        /// Appends `bytes` to the draft; throws the system's error (a full disk, say), after which the draft should
        /// be discarded.
        public func append(_ bytes: some DataProtocol) throws {
            try state.withLock { state in
                guard !state.ended else { throw POSIXError(.EBADF) }
                try state.handle.write(contentsOf: bytes)
            }
        }

        /// Puts the draft in place of `path`; throws the system's error, leaving `path` untouched and the draft
        /// removed, when it cannot. Nothing happens once the draft has ended.
        public func commit() throws {
            try state.withLock { state in
                guard !state.ended else { return }
                state.ended = true
                do {
                    try state.handle.close()
                } catch {
                    unlink(state.temporary)
                    throw error
                }
                guard rename(state.temporary, path) == 0 else {
                    let code = errno
                    unlink(state.temporary)
                    throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
                }
            }
        }

        /// Removes the draft: `path` stays as it was. Nothing happens once the draft has ended.
        public func discard() {
            state.withLock { state in
                guard !state.ended else { return }
                state.ended = true
                try? state.handle.close()  // the draft is thrown away: what its close says changes nothing
                unlink(state.temporary)
            }
        }
    }
}
