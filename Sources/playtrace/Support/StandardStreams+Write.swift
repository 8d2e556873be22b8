import Foundation

extension StandardStreams {
    /// A line through standard output's buffer (as `print` does), in order with every other printed line.
    static func printLine(_ line: String) {
        print(line)
    }

    /// Writes `text` to standard output at once, past its buffer (which is flushed first, to keep the order).
    static func writeOutput(_ text: String) {
        fflush(nil)
        write(text, to: .standardOutput)
    }

    /// Writes `text` to standard error at once.
    static func writeError(_ text: String) {
        write(text, to: .standardError)
    }

    /// Writes `text`, or as much as the descriptor takes: a terminal that was closed (SIGHUP, a dropped ssh link)
    /// answers EIO, a closed pipe EPIPE, and the session goes on to write its files rather than stop on it
    /// (Foundation's `FileHandle.write(_:)` traps on such an error; `write(contentsOf:)` throws it).
    private static func write(_ text: String, to handle: FileHandle) {
        try? handle.write(contentsOf: Data(text.utf8))
    }
}
