/// Why an outbox could not be opened.
public enum OutboxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be opened or prepared as an outbox store: it is not an SQLite database, it cannot be
    /// read or written, or its schema cannot be set up. The reason is SQLite's, in its words.
    case unreadableStore(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadableStore(_, let reason): return "not a usable outbox file (\(reason))"
        }
    }
}
