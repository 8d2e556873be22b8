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
        var kept: mode_t?
        var existing = stat()
        if permissions != privatePermissions, stat(path, &existing) == 0, (existing.st_mode & S_IFMT) == S_IFREG {
            kept = existing.st_mode & 0o777
        }
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
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: data)
            try handle.close()
        } catch {
            try? handle.close()
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
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
