import DequeModule
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

    public init(method: String, path: String, query: String?, status: Int, bytes: Int, receivedAt: Duration, faults: [String],
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
    /// Every request since the log was last cleared, counted by kind (the request log's; absent from others).
    public var totals: LabRequestTotals?
    public var entries: [Entry]

    public init(limit: Int, dropped: Int, entries: [Entry], totals: LabRequestTotals? = nil) {
        schemaVersion = Self.currentSchemaVersion
        self.limit = limit
        self.dropped = dropped
        self.entries = entries
        self.totals = totals
    }
}

/// The lab's requests counted, whatever its log keeps: at a probe's rate the log holds the last seconds, these every
/// request. By kind of resource, each with its statuses and bytes.
public struct LabRequestTotals: Codable, Sendable, Equatable {
    /// One kind's counts.
    public struct Counts: Codable, Sendable, Equatable {
        public var requests = 0
        public var bytes = 0
        /// By status (`"200"`, `"404"`; `"0"` for a dropped connection).
        public var statuses: [String: Int] = [:]
    }

    public var requests = 0
    public var bytes = 0
    /// By kind: `playlist`, `segment`, `session` (SSAI set-ups), `metadata` (ad metadata, VAST), `beacon`, `sink`
    /// (telemetry), `lab` (its own API), `other`.
    public var byKind: [String: Counts] = [:]

    public init() {}

    mutating func add(_ request: LabRequest) {
        requests += 1
        bytes += request.bytes
        let kind = Self.kind(of: request)
        byKind[kind, default: Counts()].requests += 1
        byKind[kind, default: Counts()].bytes += request.bytes
        byKind[kind, default: Counts()].statuses[String(request.status), default: 0] += 1
    }

    /// A request's kind, by its path (and an SSAI set-up by its method or query).
    static func kind(of request: LabRequest) -> String {
        let path = request.path
        if path.hasPrefix("/beacons/") { return "beacon" }
        if path.hasPrefix("/sink/") { return "sink" }
        if path.hasPrefix("/lab/") { return "lab" }
        if path.hasPrefix("/ssai/") {
            if request.method == "POST" || request.query?.contains("initSession=true") == true { return "session" }
            if path.hasSuffix("/metadata") || path.contains("/tracking/") { return "metadata" }
        }
        if path.hasPrefix("/vast/") { return "metadata" }
        if path.hasSuffix(".m3u8") || path.hasSuffix(".mpd") { return "playlist" }
        if [".ts", ".mp4", ".m4s", ".aac", ".vtt", ".bin"].contains(where: path.hasSuffix) { return "segment" }
        return "other"
    }
}

/// What the lab keeps of what it received, oldest first, bounded (the oldest are dropped past the limit, each in
/// constant time).
public final class BoundedLog<Entry: Sendable>: Sendable {
    private struct Contents {
        var entries = Deque<Entry>()
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
                contents.entries.removeFirst()
                contents.dropped += 1
            }
        }
    }

    /// Every entry.
    public var all: [Entry] { contents.withLock { Array($0.entries) } }


    /// How many entries were dropped past the limit since the log was made or last cleared.
    public var dropped: Int { contents.withLock { $0.dropped } }

    /// Forgets every entry.
    public func clear() { contents.withLock { $0 = Contents() } }
}

public extension BoundedLog where Entry: Codable {
    /// The log as its endpoint serves it: every entry kept, or the latest `last` of them.
    func document(last: Int? = nil) -> LabLogDocument<Entry> {
        contents.withLock { contents in
            let entries = last.map { Array(contents.entries.suffix(max(0, $0))) } ?? Array(contents.entries)
            return LabLogDocument(limit: limit, dropped: contents.dropped, entries: entries)
        }
    }

    /// The log as its endpoint serves it.
    var document: LabLogDocument<Entry> { document() }
}

/// The requests the lab served: the latest 100,000 one by one, and every one counted (``totals``).
public final class RequestLog: Sendable {
    private let log: BoundedLog<LabRequest>
    private let counted = Locked(LabRequestTotals())

    /// A log that keeps the last `limit` requests (100,000 by default) and counts them all.
    public init(limit: Int = 100_000) { log = BoundedLog(limit: limit) }

    public var limit: Int { log.limit }

    public func append(_ request: LabRequest) {
        counted.withLock { $0.add(request) }
        log.append(request)
    }

    /// Every request kept, oldest first.
    public var all: [LabRequest] { log.all }

    /// How many were dropped past the limit.
    public var dropped: Int { log.dropped }

    /// Every request since the log was made or cleared, counted.
    public var totals: LabRequestTotals { counted.withLock { $0 } }

    /// Forgets every request, and the counts.
    public func clear() {
        counted.withLock { $0 = LabRequestTotals() }
        log.clear()
    }

    /// The logged requests whose path contains `text`.
    public func matching(_ text: String) -> [LabRequest] { all.filter { $0.path.contains(text) } }

    /// The log as `GET /lab/requests` serves it (`?last=N`: the latest N entries only), with the totals.
    public func document(last: Int? = nil) -> LabLogDocument<LabRequest> {
        var document = log.document(last: last)
        document.totals = totals
        return document
    }

    public var document: LabLogDocument<LabRequest> { document() }
}
