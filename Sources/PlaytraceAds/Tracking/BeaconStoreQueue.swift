import PlaytraceNetwork

/// Writes fired beacons to the outbox off the main actor, each firing's after the one before; tells what an
/// earlier run handed over already, or what could not be stored.
@MainActor
final class BeaconStoreQueue {
    /// A beacon URL to write to the outbox, and where its record is.
    struct Beacon: Sendable {
        let deliveryKey: String
        let index: Int
        let sentAt: Duration
        let message: OutboxMessage
    }

    /// What writing a beacon URL came to, when it was not simply stored: its outcome, and what to say.
    struct Result: Sendable {
        let beacon: Beacon
        let outcome: BeaconRecord.URLState.Outcome?
        let note: String
        let isError: Bool
    }

    private let outbox: Outbox
    /// The last write under way.
    private var storing: Task<Void, Never>?

    init(outbox: Outbox) {
        self.outbox = outbox
    }

    /// Writes beacon URLs after those given before; `then` hears, on the main actor, those not simply stored.
    func store(_ beacons: [Beacon], then: @escaping @MainActor ([Result]) -> Void) {
        guard !beacons.isEmpty else { return }
        let previous = storing
        let outbox = outbox
        storing = Task {
            await previous?.value
            then(await Self.persist(beacons, to: outbox))
        }
    }

    /// Waits until what was given so far is written.
    func finished() async {
        await storing?.value
    }

    private nonisolated static func persist(_ beacons: [Beacon], to outbox: Outbox) async -> [Result] {
        var results: [Result] = []
        for beacon in beacons {
            do {
                guard try await !outbox.persist(beacon.message) else { continue }
                // An earlier run of the session handed this one over already: it is not sent again.
                results.append(Result(
                    beacon: beacon, outcome: try earlierOutcome(of: beacon.message.key, at: beacon.sentAt, in: outbox),
                    note: "beacon \(beacon.message.key) was handed over by an earlier run: not sent again", isError: false))
            } catch {
                results.append(Result(beacon: beacon, outcome: .failed("not stored: \(error)"),
                                      note: "beacon \(beacon.deliveryKey) could not be queued: \(error)", isError: true))
            }
        }
        return results
    }

    /// What became of a beacon URL an earlier run handed over (its key is remembered by the outbox).
    private nonisolated static func earlierOutcome(of key: String, at instant: Duration,
                                                   in outbox: Outbox) throws -> BeaconRecord.URLState.Outcome? {
        switch try outbox.keyStates(withPrefix: key)[key] {
        case .delivered, nil: .delivered(instant)
        case .rejected: .failed("refused in an earlier run")
        case .pending: nil
        }
    }
}
