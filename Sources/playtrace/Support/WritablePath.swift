import ArgumentParser
import Foundation
import PlaytraceCore

/// A file an option names for writing, checked before the session starts: a path that cannot be written is refused
/// then, on standard error, rather than after an hour of playback.
enum WritablePath {
    /// Checks that the file can be written as Playtrace writes files (``AtomicFile``: a temporary file made beside
    /// it, then renamed over it), by making and removing such a temporary file; throws a `ValidationError` that
    /// names the option, the path and the system's reason.
    /// - Parameter appending: whether the command appends to the file (`--jsonl`) rather than replacing it: what it
    ///   holds must be readable too.
    static func check(_ path: String, option: String, appending: Bool) throws {
        guard !path.isEmpty else { throw ValidationError("\(option) needs a file path") }
        var isDirectory: ObjCBool = false
        let existed = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        if existed, isDirectory.boolValue {
            throw ValidationError(PlainText.safe("\(option) \(path): is a directory"))
        }
        do {
            try AtomicFile.Draft(path: path).discard()
        } catch let error as POSIXError {
            throw ValidationError(PlainText.safe("\(option) \(path): \(String(cString: strerror(error.code.rawValue)))"))
        }
        if appending, existed, access(path, R_OK) != 0 {
            throw ValidationError(PlainText.safe("\(option) \(path): \(String(cString: strerror(errno)))"))
        }
    }
}
