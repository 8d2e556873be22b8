import PlaytraceCore

/// One request the lab served. In JSON (`GET /lab/requests`) its arrival is `receivedAtSeconds`.
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
    /// The `User-Agent` header, when the request had one.
    public var userAgent: String?
    /// The request's custom headers (names beginning with `X-`, lowercased), when it had any.
    public var customHeaders: [String: String]?

    init(method: String, path: String, query: String?, status: Int, bytes: Int, receivedAt: Duration, faults: [String],
         range: String? = nil, idempotencyKey: String?, client: (userAgent: String?, custom: [String: String]?) = (nil, nil)) {
        userAgent = client.userAgent
        customHeaders = client.custom
        self.method = method
        self.path = path
        self.query = query
        self.status = status
        self.bytes = bytes
        self.receivedAt = receivedAt
        self.faults = faults
        self.range = range
        self.idempotencyKey = idempotencyKey
    }

    private enum CodingKeys: String, CodingKey {
        case method, path, query, status, bytes, receivedAtSeconds, faults, range, idempotencyKey, userAgent, customHeaders
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        method = try container.decode(String.self, forKey: .method)
        path = try container.decode(String.self, forKey: .path)
        query = try container.decodeIfPresent(String.self, forKey: .query)
        status = try container.decode(Int.self, forKey: .status)
        bytes = try container.decode(Int.self, forKey: .bytes)
        receivedAt = .seconds(try container.decode(Double.self, forKey: .receivedAtSeconds))
        faults = try container.decode([String].self, forKey: .faults)
        range = try container.decodeIfPresent(String.self, forKey: .range)
        idempotencyKey = try container.decodeIfPresent(String.self, forKey: .idempotencyKey)
        userAgent = try container.decodeIfPresent(String.self, forKey: .userAgent)
        customHeaders = try container.decodeIfPresent([String: String].self, forKey: .customHeaders)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(method, forKey: .method)
        try container.encode(path, forKey: .path)
        try container.encodeIfPresent(query, forKey: .query)
        try container.encode(status, forKey: .status)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(receivedAt.seconds, forKey: .receivedAtSeconds)
        try container.encode(faults, forKey: .faults)
        try container.encodeIfPresent(range, forKey: .range)
        try container.encodeIfPresent(idempotencyKey, forKey: .idempotencyKey)
        try container.encodeIfPresent(userAgent, forKey: .userAgent)
        try container.encodeIfPresent(customHeaders, forKey: .customHeaders)
    }
}

/// A lab log as its endpoint serves it (`GET /lab/requests`, `GET /lab/beacons`): the entries kept, oldest first,
/// and how many were dropped past the log's limit. It follows `schemas/lab-log.schema.json`.
public struct LabLogDocument<Entry: Codable & Sendable>: Codable, Sendable {
    /// The version of `schemas/lab-log.schema.json` the document follows.
    public static var currentSchemaVersion: Int { 1 }

    public var schemaVersion: Int
    /// How many entries the log keeps; past it the oldest are dropped.
    public var limit: Int
    /// How many entries were dropped since the log was last cleared.
    public var dropped: Int
    public var entries: [Entry]

    public init(limit: Int, dropped: Int, entries: [Entry]) {
        schemaVersion = Self.currentSchemaVersion
        self.limit = limit
        self.dropped = dropped
        self.entries = entries
    }
}

/// What the lab keeps of what it received, oldest first, bounded (the oldest are dropped past the limit).
public final class BoundedLog<Entry: Sendable>: Sendable {
    private struct Contents {
        var entries: [Entry] = []
        var dropped = 0
    }

    private let contents = Locked(Contents())
    /// How many entries the log keeps.
    public let limit: Int

    /// Creates a log that keeps at most `limit` entries.
    public init(limit: Int) { self.limit = max(1, limit) }

    /// Adds an entry, dropping the oldest past the limit.
    public func append(_ entry: Entry) {
        contents.withLock { contents in
            contents.entries.append(entry)
            if contents.entries.count > limit {
                let excess = contents.entries.count - limit
                contents.entries.removeFirst(excess)
                contents.dropped += excess
            }
        }
    }

    /// Every entry.
    public var all: [Entry] { contents.withLock { $0.entries } }

    /// How many entries were dropped past the limit since the log was made or last cleared.
    public var dropped: Int { contents.withLock { $0.dropped } }

    /// Forgets every entry.
    public func clear() { contents.withLock { $0 = Contents() } }
}

public extension BoundedLog where Entry: Codable {
    /// The log as its endpoint serves it.
    var document: LabLogDocument<Entry> {
        contents.withLock { LabLogDocument(limit: limit, dropped: $0.dropped, entries: $0.entries) }
    }
}

/// The requests the lab served.
public typealias RequestLog = BoundedLog<LabRequest>

public extension BoundedLog where Entry == LabRequest {
    /// A log that keeps the last 100,000 requests.
    convenience init() { self.init(limit: 100_000) }

    /// The logged requests whose path contains `text`.
    func matching(_ text: String) -> [LabRequest] { all.filter { $0.path.contains(text) } }
}
