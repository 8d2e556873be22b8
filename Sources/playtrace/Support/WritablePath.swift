import ArgumentParser
import Foundation

/// A file an option names for writing, checked before the session starts: a path that cannot be written is refused
/// then, on standard error, rather than after an hour of playback.
enum WritablePath {
    /// Opens the file for writing (creating it if it is missing, and then removing it again); throws a
    /// `ValidationError` that names the option, the path and the system's reason.
    /// - Parameter appending: whether the command appends to the file (`--jsonl`) rather than replacing it.
    static func check(_ path: String, option: String, appending: Bool) throws {
        guard !path.isEmpty else { throw ValidationError("\(option) needs a file path") }
        var isDirectory: ObjCBool = false
        let existed = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        if existed, isDirectory.boolValue {
            throw ValidationError(PlainText.safe("\(option) \(path): is a directory"))
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | (appending ? O_APPEND : 0), 0o644)
        guard descriptor >= 0 else {
            throw ValidationError(PlainText.safe("\(option) \(path): \(String(cString: strerror(errno)))"))
        }
        close(descriptor)
        if !existed { unlink(path) }
    }
}
