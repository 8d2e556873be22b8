/// What a flush or a drain of the ``Outbox`` left.
public struct OutboxDrain: Sendable, Hashable {
    /// Messages of the outbox's destinations still waiting.
    public var pending: Int
    /// Paused destinations and why (``DeliveryOutcome/pause(_:)``).
    public var paused: [String: String]
    /// Whether the drain's time ran out with deliverable messages left.
    public var timedOut: Bool
    /// Messages submitted to this outbox (since it was opened) that could not be stored, and are lost.
    public var lost: Int
    /// Messages waiting, by destination: those of the outbox's destinations, and those stored for destinations it
    /// has no courier for (left by runs with other backends).
    public var pendingByDestination: [String: Int]
    /// What happened to the outbox's file while in use, when something did (deleted, replaced, truncated, no longer
    /// writable): what ``pending`` counts is then not kept for a later run (``Outbox/fileProblem()``).
    public var fileProblem: String?
    /// Destinations whose server asked for a wait (Retry-After) that ends after the drain: the date (seconds since
    /// 1970) their first message falls due. Their messages stay stored for a later run or `outbox --deliver`.
    public var retryAfter: [String: Double]

    public init(pending: Int, paused: [String: String], timedOut: Bool, lost: Int = 0,
                pendingByDestination: [String: Int] = [:], fileProblem: String? = nil,
                retryAfter: [String: Double] = [:]) {
        self.pending = pending
        self.paused = paused
        self.timedOut = timedOut
        self.lost = lost
        self.pendingByDestination = pendingByDestination
        self.fileProblem = fileProblem
        self.retryAfter = retryAfter
    }
}
