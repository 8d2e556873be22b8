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

    public init(pending: Int, paused: [String: String], timedOut: Bool, lost: Int = 0) {
        self.pending = pending
        self.paused = paused
        self.timedOut = timedOut
        self.lost = lost
    }
}
