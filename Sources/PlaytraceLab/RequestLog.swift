import PlaytraceCore

/// One request the lab served.
public struct LabRequest: Sendable, Hashable, Codable {
    /// The HTTP method.
    public var method: String
    /// The path requested.
    public var path: String
    /// The query string, if any.
    public var query: String?
    /// The status the lab answered with.
    public var status: Int
    /// Body bytes the lab meant to send.
    public var bytes: Int
    /// When it arrived, in lab time since the lab started.
    public var receivedAt: Duration
    /// The faults applied, described.
    public var faults: [String]
    /// The `Range` header, when the request had one.
    public var range: String?
    /// The `Idempotency-Key` header, when the request had one (deliveries through the outbox carry it).
    public var idempotencyKey: String?
}

/// What the lab keeps of what it received, oldest first, bounded (the oldest are dropped past the limit).
public final class BoundedLog<Entry: Sendable>: Sendable {
    private let entries = Locked<[Entry]>([])
    private let limit: Int

    /// Creates a log that keeps at most `limit` entries.
    public init(limit: Int) { self.limit = max(1, limit) }

    func append(_ entry: Entry) {
        entries.withLock { entries in
            entries.append(entry)
            if entries.count > limit { entries.removeFirst(entries.count - limit) }
        }
    }

    /// Every entry.
    public var all: [Entry] { entries.withLock { $0 } }

    /// Forgets every entry.
    public func clear() { entries.withLock { $0.removeAll() } }
}

/// The requests the lab served.
public typealias RequestLog = BoundedLog<LabRequest>

public extension BoundedLog where Entry == LabRequest {
    /// A log that keeps the last 100,000 requests.
    convenience init() { self.init(limit: 100_000) }

    /// The logged requests whose path contains `text`.
    func matching(_ text: String) -> [LabRequest] { all.filter { $0.path.contains(text) } }
}
