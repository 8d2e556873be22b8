/// Something in an MPD read differently from what was written, or left out, and where: what the lenient reading
/// did, for `inspect` to list and a session to log.
public struct MPDProblem: Sendable, Hashable, CustomStringConvertible {
    /// The line of the element it concerns (1-based; 0 when not from a document).
    public var line: Int
    public var message: String

    public init(line: Int, _ message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { line > 0 ? "line \(line): \(message)" : message }
}
