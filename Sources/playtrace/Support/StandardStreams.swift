#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

/// The C streams that `print` writes through.
enum StandardStreams {
    /// Makes standard output line-buffered, as it is on a terminal, when it is a file or a pipe: a status or log line
    /// reaches a reader (`tail -f`, a test, a CI log) when it is printed, not in 4 KB blocks. Call it before anything
    /// is printed.
    static func lineBuffered() {
        guard isatty(STDOUT_FILENO) != 1 else { return }
        setvbuf(stdout, nil, _IOLBF, 0)
    }

    /// Writes out what the streams still hold, before the process quits without running its exit handlers.
    static func flush() {
        fflush(nil)
    }
}
