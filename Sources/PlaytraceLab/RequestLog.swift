import PlaytraceCore
import Synchronization

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

/// The requests the lab served, oldest first, bounded (the oldest are dropped past the limit).
public final class RequestLog: Sendable {
    private let entries = Mutex<[LabRequest]>([])
    private let limit: Int

    /// Creates a log that keeps at most `limit` requests.
    public init(limit: Int = 100_000) { self.limit = limit }

    func append(_ request: LabRequest) {
        entries.withLock { entries in
            entries.append(request)
            if entries.count > limit { entries.removeFirst(entries.count - limit) }
        }
    }

    /// Every logged request.
    public var all: [LabRequest] { entries.withLock { $0 } }

    /// The logged requests whose path contains `text`.
    public func matching(_ text: String) -> [LabRequest] { entries.withLock { $0.filter { $0.path.contains(text) } } }

    /// Forgets every request.
    public func clear() { entries.withLock { $0.removeAll() } }
}
