// A burst of ad beacons through one in-memory Outbox, as a probe's viewers fire them when a break starts: how fast
// the outbox hands them to its courier and how late each is delivered, with a courier that answers after a fixed
// delay (the outbox alone, not the network).
//
//   OutboxBurst [MESSAGES] [PRODUCERS] [COURIER_MS]   (defaults 3000, 800, 1)
//
// Each producer persists its share one after the other (as a viewer's ad session does); the courier's answer is
// awaited in parallel (independent messages, 1,024 at once). Lateness: from the persist call to the courier's
// answer.
import Foundation
import PlaytraceNetwork
import Synchronization

final class Deliveries: Sendable {
    let lateness = Mutex<[Duration]>([])
}

struct StubCourier: OutboxCourier {
    let delay: Duration
    let started: ContinuousClock.Instant
    let done: Deliveries
    var name: String { "ad-beacons" }
    var ordering: OutboxOrdering { .independent(maximumPerHost: 1_024, maximumInFlight: 1_024) }

    func deliver(_ message: OutboxMessage) async -> DeliveryOutcome {
        if delay > .zero { try? await Task.sleep(for: delay) }
        let firedAt = Double(message.metadata["firedAt"] ?? "0") ?? 0
        let now = ContinuousClock.now - started
        done.lateness.withLock { $0.append(now - .seconds(firedAt)) }
        return .delivered
    }
}

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let messages = arguments.count > 0 ? arguments[0] : 3_000
let producers = arguments.count > 1 ? arguments[1] : 800
let courierMilliseconds = arguments.count > 2 ? arguments[2] : 1

let started = ContinuousClock.now
let courier = StubCourier(delay: .milliseconds(courierMilliseconds), started: started, done: Deliveries())
let outbox = try Outbox(path: nil, couriers: [courier])
await outbox.start()
let cpuBefore = clock()
await withTaskGroup(of: Void.self) { group in
    for producer in 0..<producers {
        group.addTask {
            for index in stride(from: producer, to: messages, by: producers) {
                let firedAt = (ContinuousClock.now - started) / .seconds(1)
                let message = OutboxMessage(key: "beacon:\(producer):\(index)/0", destination: "ad-beacons", payload: [],
                                            metadata: ["url": "http://127.0.0.1:9/beacon/\(index)", "firedAt": "\(firedAt)"],
                                            remembersKey: true)
                _ = try? await outbox.persist(message)
            }
        }
    }
}
let persisted = ContinuousClock.now - started
while courier.done.lateness.withLock({ $0.count }) < messages { try await Task.sleep(for: .milliseconds(5)) }
let elapsed = ContinuousClock.now - started
let cpu = Double(clock() - cpuBefore) / Double(CLOCKS_PER_SEC)
let lateness = courier.done.lateness.withLock { $0 }.sorted()
func percentile(_ p: Double) -> String {
    let value = lateness[min(lateness.count - 1, Int(Double(lateness.count) * p / 100))]
    return String(format: "%.1f ms", Double(value.components.attoseconds) / 1e15 + Double(value.components.seconds) * 1000)
}
print("\(messages) messages from \(producers) producers, courier \(courierMilliseconds) ms: all persisted after \(persisted), "
      + "all delivered after \(elapsed) (\(Int(Double(messages) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18))) /s), "
      + String(format: "CPU %.2f s (%.0f µs a message)", cpu, cpu * 1e6 / Double(messages)))
print("lateness p50 \(percentile(50)), p90 \(percentile(90)), p99 \(percentile(99)), max \(percentile(100))")
