/// A courier that makes its first attempt only once a preparation has ended: creating the database its batches go
/// to, say, which then runs beside the work that produces them instead of before it.
///
/// ```swift
/// let check = Task { try? await InfluxDBBackend.createDatabase(for: configuration, transport: transport) }
/// let courier = PreparedCourier(InfluxDBBackend.courier(transport: transport), after: check)
/// ```
public struct PreparedCourier: OutboxCourier {
    private let base: any OutboxCourier
    private let preparation: Task<Void, Never>

    /// - Parameters:
    ///   - base: the courier that delivers.
    ///   - preparation: what must end before the first attempt (its outcome is its own to report).
    public init(_ base: any OutboxCourier, after preparation: Task<Void, Never>) {
        self.base = base
        self.preparation = preparation
    }

    public var name: String { base.name }
    public var ordering: OutboxOrdering { base.ordering }

    public func deliver(_ message: OutboxMessage) async -> DeliveryOutcome {
        await preparation.value
        return await base.deliver(message)
    }

    public func split(_ message: OutboxMessage) -> [OutboxMessage]? { base.split(message) }
}
