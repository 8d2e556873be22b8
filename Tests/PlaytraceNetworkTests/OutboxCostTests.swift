import Foundation
import PlaytraceNetwork
import Synchronization
import Testing

/// What a message costs the outbox's store, counted rather than timed: a burst of ad beacons is where the outbox's
/// cost shows (a probe's viewers all entering a break at once), and a statement or a read-back too many per message
/// comes back as seconds of delivery lateness there (Benchmarks' OutboxBurst times it).
@Suite("Outbox: the store work a message costs")
struct OutboxCostTests {
    /// Delivers at once, each message on its own, 64 at a time.
    struct InstantCourier: OutboxCourier {
        let delivered = Counter()
        var name: String { "beacons" }
        var ordering: OutboxOrdering { .independent(maximumPerHost: 64, maximumInFlight: 64) }
        func deliver(_ message: OutboxMessage) async -> DeliveryOutcome {
            await Task.yield()
            delivered.value.add(1, ordering: .relaxed)
            return .delivered
        }
    }

    final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    @Test("A burst of beacons: each read back once, in at most 29 SQL statements each, whatever is in flight beside it")
    func burst() async throws {
        let courier = InstantCourier()
        let outbox = try Outbox(path: nil, couriers: [courier])
        let opened = outbox.storeActivity
        await outbox.start()
        let producers = 40, each = 10
        await withTaskGroup(of: Void.self) { group in
            for producer in 0..<producers {
                group.addTask {
                    for index in 0..<each {
                        _ = try? await outbox.persist(OutboxMessage(
                            key: "beacon:\(producer)/\(index)", destination: "beacons", payload: [],
                            metadata: ["url": "http://127.0.0.1:9/beacon/\(producer)/\(index)"], remembersKey: true))
                    }
                }
            }
        }
        let drain = await outbox.flush()
        let total = producers * each
        #expect(drain.pending == 0 && courier.delivered.value.load(ordering: .relaxed) == total)
        let activity = outbox.storeActivity
        let statements = Double(activity.statements - opened.statements) / Double(total)
        // Each message is decoded once, when it is claimed: not again at every other attempt's end.
        #expect(activity.decoded - opened.decoded == total)
        // Measured here: 23.3 a message (transactions; the insert, its trigger and counter, the bounds; the claim;
        // the removal, its settled key, trigger and counter; a look for the next due date now and then), 29 is 25%
        // above. (The cost of recompiling statements, as GRDB's read guard made SQLite do after every read, is not
        // in this count: Benchmarks' OutboxBurst times it.)
        #expect(statements <= 29, "\(statements) SQL statements a message")
        await outbox.stop()
    }
}
