import Foundation
import PlaytraceCore

/// Independent messages (``OutboxOrdering/independent(maximumPerHost:maximumInFlight:)``: ad beacons, each to its own
/// vendor): each attempted on its own, a few at once per host, none waiting on another's failures. Its state is
/// ``IndependentAttempts``.
extension Outbox {
    /// The attempts under way at independent messages, counted by destination and by lane (destination and host).
    struct IndependentAttempts {
        private var tasks: [Int64: (destination: String, task: Task<Void, Never>)] = [:]
        private var byDestination: [String: Int] = [:]
        private var byLane: [String: Int] = [:]

        func count(of destination: String) -> Int { byDestination[destination, default: 0] }
        func count(inLane lane: String) -> Int { byLane[lane, default: 0] }

        /// Whether an attempt for one of `destinations` runs.
        func isRunning(for destinations: [String]) -> Bool {
            tasks.values.contains { destinations.contains($0.destination) }
        }

        mutating func started(_ id: Int64, destination: String, lane: String, task: Task<Void, Never>) {
            tasks[id] = (destination, task)
            byDestination[destination, default: 0] += 1
            byLane[lane, default: 0] += 1
        }

        mutating func ended(_ id: Int64, destination: String, lane: String) {
            tasks[id] = nil
            byDestination[destination, default: 1] -= 1
            byLane[lane, default: 1] -= 1
            if byLane[lane] == 0 { byLane[lane] = nil }
        }

        /// Abandons the attempts for `destinations` (all when `nil`); their messages stay stored.
        func cancel(for destinations: [String]? = nil) {
            for attempt in tasks.values where destinations?.contains(attempt.destination) ?? true { attempt.task.cancel() }
        }
    }

    /// Starts attempts at the due messages of a destination whose messages are independent, earliest due first, while its
    /// limits allow: at most `maximumInFlight` at once, `maximumPerHost` to one host. A message whose host is at its
    /// limit is passed over for later ones (other hosts'); it starts when an attempt of its host ends.
    func startDeliveries(_ destination: String, courier: any OutboxCourier, maximumPerHost: Int,
                                 maximumInFlight: Int) {
        let lookedAt = wallClock.now
        // With every place taken, the end of an attempt looks again: when the next message falls due is read only
        // once a look leaves places free (one query fewer per beacon in a burst).
        var placesFilled = false
        defer { if !placesFilled { scheduleNextLook(destination, lookedAt: lookedAt) } }
        if holds.heldUntil(destination, after: wallClock.now) != nil { return }
        checkFile()
        let places = maximumInFlight - independent.count(of: destination)
        placesFilled = places <= 0
        guard places > 0 else { return }
        // The messages are claimed as they are read, in one transaction: those whose host is at its limit are passed
        // over for later ones (other hosts'), and start when an attempt of their host ends.
        var admitted: [String: Int] = [:]
        var lanes: [Int64: String] = [:]
        let moment = now
        guard let page = logged(destination, {
            try store.claimDue(destination: destination, at: lookedAt.secondsSince1970, limit: places,
                               until: moment + configuration.claimDuration.seconds) { message in
                guard let id = message.id, !passes.inFlight.contains(id) else { return false }
                let lane = destination + " " + Self.host(of: message)
                guard independent.count(inLane: lane) + admitted[lane, default: 0] < maximumPerHost else { return false }
                admitted[lane, default: 0] += 1
                lanes[id] = lane
                return true
            }
        }) else { return }
        placesFilled = page.messages.count == places
        for message in page.messages {
            guard let id = message.id, let lane = lanes[id] else { continue }
            passes.inFlight.insert(id)
            independent.started(id, destination: destination, lane: lane, task: Task {
                let outcome = await courier.deliver(message)
                self.finished(outcome, of: message, id: id, lane: lane, courier: courier, abandoned: Task.isCancelled)
            })
        }
    }

    /// Records an attempt at an independent message, and starts what its freed place allows.
    func finished(_ outcome: DeliveryOutcome, of message: OutboxMessage, id: Int64, lane: String,
                          courier: any OutboxCourier, abandoned: Bool) {
        let destination = message.destination
        independent.ended(id, destination: destination, lane: lane)
        passes.inFlight.remove(id)
        _ = record(outcome, of: message, id: id, courier: courier, holdsDestination: false, abandoned: abandoned)
        if !abandoned, schedule.loop != nil, case .independent(let perHost, let total) = courier.ordering {
            startDeliveries(destination, courier: courier, maximumPerHost: perHost, maximumInFlight: total)
        } else {
            notifyWaiters()
        }
    }

    /// The host (and port) a message goes to: its `url` metadata's; messages without one share a lane.
    static func host(of message: OutboxMessage) -> String {
        guard let text = message.metadata["url"], let components = URLComponents(string: text) else { return "" }
        return (components.host ?? "") + ":" + (components.port.map(String.init) ?? components.scheme ?? "")
    }
}
