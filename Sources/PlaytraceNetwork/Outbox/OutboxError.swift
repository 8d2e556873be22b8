/// Why an outbox could not be opened.
public enum OutboxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be opened or prepared as an outbox store: it is not an SQLite database, it cannot be
    /// read or written, or its schema cannot be set up. The reason is SQLite's, in its words.
    case unreadableStore(path: String, reason: String)
    /// The file is an SQLite database of something else (its tables are named): it was left as it was.
    case notAnOutbox(path: String, tables: [String])

    public var description: String {
        switch self {
        case .unreadableStore(_, let reason): return "not a usable outbox file (\(reason))"
        case .notAnOutbox(_, let tables):
            return "an SQLite database that is not an outbox (its tables: \(tables.joined(separator: ", "))); left untouched"
        }
    }
}
