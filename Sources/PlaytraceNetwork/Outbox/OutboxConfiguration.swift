import PlaytraceCore

/// How the ``Outbox`` retries and what it keeps.
public struct OutboxConfiguration: Sendable {
    /// The most payload bytes kept; beyond it the oldest messages are dropped (and counted).
    public var maximumBytes: Int = 64 << 20
    /// Messages older than this are dropped (and counted) instead of being delivered late.
    public var maximumAge: Duration = .seconds(24 * 3600)
    /// The wait before the first retry; it doubles with each further attempt.
    public var initialBackoff: Duration = .milliseconds(500)
    /// The longest wait between attempts.
    public var maximumBackoff: Duration = .seconds(60)
    /// How often the delivery loop looks through the file for due messages it was not told about (stored by other
    /// processes sharing the file). Its own messages and retries wake it at their own time, so an idle outbox wakes
    /// only this often.
    public var pollInterval: Duration = .seconds(60)
    /// How long a message handed over with `Outbox.submit` may wait before the background task stores it: the
    /// outbox's durability window beyond the caller's own batching. The storing task looks for submissions this
    /// often, so that a submitter never has to wake it (waking a thread costs the waker several microseconds, on
    /// the thread that must not wait).
    public var storeInterval: Duration = .milliseconds(250)
    /// How long the storing task keeps looking after the last submission before it ends; the next submission then
    /// wakes it (once). Longer keeps a sparse stream of submissions from waking it each time, at the cost of a look
    /// every ``storeInterval`` meanwhile.
    public var storeLinger: Duration = .seconds(1)
    /// The most messages handed over with `Outbox.submit` and not stored yet (the storing task writes them a look
    /// at a time). Beyond it a submission is refused: counted as lost (`OutboxDrain.lost`) and logged once until the
    /// storing task catches up. So a store that cannot keep up (a slow or full disk) holds this many messages in
    /// memory at most, not as many as the callers make.
    public var maximumSubmitted: Int = 1_024
    /// The most messages handled per pass.
    public var batchSize: Int = 64
    /// How long a delivery attempt holds its message against other processes sharing the file; longer than any
    /// courier's timeout. A process that dies mid-attempt leaves its messages to the others after this.
    public var claimDuration: Duration = .seconds(120)
    /// How long a destination that refuses everything for a reason of its own set-up (a missing database, bad
    /// credentials: ``DeliveryOutcome/pause(_:)``) is left alone before it is tried again.
    public var pauseDuration: Duration = .seconds(60)
    /// The longest wait a server's `Retry-After` may ask for; a longer one is cut to it (a message is not parked for
    /// a day because a server said so).
    public var maximumRetryAfter: Duration = .seconds(3_600)

    public init() {}

    /// The wait before attempt `attempt + 1` after `attempt` failures: exponential, capped, with "equal jitter"
    /// (half fixed, half random) so that many clients retrying together spread out. `random` is in 0..<1.
    public func backoff(afterAttempt attempt: Int, random: Double) -> Duration {
        let exponent = min(max(attempt - 1, 0), 30)
        let base = min(initialBackoff.seconds * Double(1 << exponent), maximumBackoff.seconds)
        let jittered = base / 2 + base / 2 * min(max(random, 0), 1)
        return .saturating(milliseconds: jittered * 1_000)
    }
}

/// What the outbox file saw in its whole life, every process and run that used it (kept across restarts); what
/// one outbox did since it was opened is ``OutboxRunCounts``.
public struct OutboxStatistics: Sendable, Hashable {
    public var enqueued = 0
    public var delivered = 0
    /// Retries after transient failures.
    public var retried = 0
    /// Messages a destination refused for good (4xx).
    public var rejected = 0
    /// Messages dropped by the bounds (bytes or age).
    public var dropped = 0
    /// Duplicates refused at enqueueing (same key).
    public var duplicates = 0
    /// Messages a server refused as too large, replaced by smaller pieces (HTTP 413).
    public var split = 0
    /// Messages waiting now, and their payload bytes.
    public var pending = 0
    public var pendingBytes = 0
    /// Messages waiting, by destination.
    public var pendingByDestination: [String: Int] = [:]
    /// When the oldest waiting message was enqueued (seconds since 1970).
    public var oldestPending: Double?
    /// Rows set aside because they could not be read back as messages (a damaged or hand-edited file); they are
    /// counted in ``pending`` but never sent.
    public var quarantined = 0

    public init() {}
}

/// What one ``Outbox`` did since it was opened, by destination (``Outbox/runCounts()``): the figures of a run, where
/// ``OutboxStatistics`` has the file's lifetime.
public struct OutboxRunCounts: Sendable, Hashable {
    /// Messages delivered, those an earlier run left included.
    public var delivered = 0
    /// Of ``delivered``, the messages stored before this outbox was opened (left by an earlier run).
    public var deliveredFromEarlierRuns = 0
    /// Messages refused for good.
    public var rejected = 0
    /// Attempts that failed and will be tried again.
    public var retried = 0
    /// Why the latest of them failed.
    public var latestFailure: String?
    /// Messages cut in smaller ones after a server refused them as too large.
    public var split = 0

    public init() {}
}
