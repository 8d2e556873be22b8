import Foundation
public import PlaytraceCore

/// Something the ``Outbox`` must deliver: a payload for a destination (a named ``OutboxCourier``), with a stable
/// key that identifies it across retries and restarts (sent as the idempotency key, and used to drop duplicates
/// enqueued twice).
public struct OutboxMessage: Sendable, Hashable {
    /// The row in the store, once persisted.
    public var id: Int64?
    /// Identifies the message for good (an idempotency key).
    public var key: String
    /// The courier that delivers it.
    public var destination: String
    public var payload: [UInt8]
    /// What the courier needs besides the payload (URL, headers…).
    public var metadata: [String: String]
    /// When it was enqueued (seconds since 1970, wall clock).
    public var createdAt: Double
    /// Delivery attempts so far.
    public var attempts: Int
    /// When the next attempt may be made (seconds since 1970).
    public var nextAttemptAt: Double
    /// Why the last attempt failed, if it did.
    public var lastError: String?
    /// Whether the outbox remembers the key once the message is delivered or refused (for
    /// ``OutboxConfiguration/maximumAge``), so that enqueuing the same key again — a restarted producer firing the
    /// same beacon anew — is a duplicate, and ``Outbox/keyStates(withPrefix:)`` can tell what became of it.
    public var remembersKey: Bool

    public init(id: Int64? = nil, key: String = RandomUUID.lowercasedString(), destination: String, payload: [UInt8],
                metadata: [String: String] = [:], createdAt: Double = 0, attempts: Int = 0, nextAttemptAt: Double = 0,
                lastError: String? = nil, remembersKey: Bool = false) {
        self.id = id
        self.key = key
        self.destination = destination
        self.payload = payload
        self.metadata = metadata
        self.createdAt = createdAt
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.lastError = lastError
        self.remembersKey = remembersKey
    }
}

/// What became of a message, by its key (``Outbox/keyStates(withPrefix:)``).
public enum OutboxKeyState: Sendable, Hashable {
    /// Stored, not delivered yet, after this many attempts.
    case pending(attempts: Int)
    /// Delivered.
    case delivered
    /// Refused for good by its destination.
    case rejected
}

/// What became of a delivery attempt.
public enum DeliveryOutcome: Sendable, Hashable {
    /// Delivered: the message is removed.
    case delivered
    /// A transient failure (no response, 5xx, 429): the message is tried again later — after its backoff, or after
    /// `after` when the server said how long to wait (`Retry-After`), whichever is longer.
    case retry(String, after: Duration? = nil)
    /// A permanent failure (a 400 for malformed data): the message is removed, counted and logged with the reason.
    case reject(String)
    /// The destination refuses every message for a reason of its own set-up (a missing database, bad
    /// credentials: 401, 403, 404): the message is kept, the destination is paused, and the reason is logged once.
    case pause(String)
    /// The message is too large for the server (HTTP 413): it is replaced by the pieces its courier cuts it into
    /// (``OutboxCourier/split(_:)``), each delivered on its own; a message that cannot be cut is refused for good
    /// with this reason.
    case split(String)
}

/// Delivers messages of one destination: over HTTP, over a TCP connection…
public protocol OutboxCourier: Sendable {
    /// The destination name messages refer to.
    var name: String { get }
    /// How the destination's messages relate to each other: in order, or each on its own (``OutboxOrdering``).
    /// ``OutboxOrdering/sequential`` unless the courier says otherwise.
    var ordering: OutboxOrdering { get }
    /// Makes one delivery attempt.
    func deliver(_ message: OutboxMessage) async -> DeliveryOutcome
    /// The message cut in smaller ones that together carry the same payload, for a server that refused it as too
    /// large (``DeliveryOutcome/split(_:)``); `nil` when it cannot be cut further (one line, one record). The pieces
    /// need only their payload, metadata and key set.
    func split(_ message: OutboxMessage) -> [OutboxMessage]?
}

extension OutboxCourier {
    public var ordering: OutboxOrdering { .sequential }
    public func split(_ message: OutboxMessage) -> [OutboxMessage]? { nil }
}

/// How a destination's messages are delivered relative to each other.
public enum OutboxOrdering: Sendable, Hashable {
    /// One message at a time, oldest first; a transient failure holds the whole destination back for its backoff,
    /// so that a server that is down gets one request per backoff, not one per message (telemetry batches to one
    /// backend).
    case sequential
    /// Each message on its own: its failures, retries and backoff are its own and never delay another message. At
    /// most `maximumInFlight` attempts run at once, and at most `maximumPerHost` to one host (the host and port of
    /// the message's `url` metadata), so that a host that does not answer ties up its own messages' attempts only
    /// (ad beacons, each URL to its own vendor).
    case independent(maximumPerHost: Int, maximumInFlight: Int)
}
