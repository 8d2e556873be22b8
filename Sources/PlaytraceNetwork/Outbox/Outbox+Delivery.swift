import Foundation
import Logging
import PlaytraceCore

/// Delivery: the loop that looks for due messages, a pass per destination, and independent messages (each on its
/// own, a few at once per host).
extension Outbox {
    // MARK: - Delivery

    /// (Re)starts the background loop, which wakes at the outbox's alarm: the loop sleeping now may be set for later
    /// than a date that just became known.
    func rearm() {
        loop?.cancel()
        let stopwatch = wallClock.stopwatch
        loop = Task { [weak self] in
            while !Task.isCancelled {
                guard let wait = await self?.tick() else { return }
                do { try await stopwatch.sleep(for: wait) } catch { return }
            }
        }
    }

    /// Starts the passes that are due, and returns how long the loop may sleep before the next one.
    func tick() -> Duration {
        loopWakes += 1
        let moment = now
        let fullScan = moment >= nextScan
        if fullScan { nextScan = moment + configuration.pollInterval.seconds }
        for destination in destinations where fullScan || (nextDue[destination] ?? -.infinity) <= moment {
            kick(destination)
        }
        notifyWaiters()
        // A destination whose pass runs sets its date when the pass ends (and wakes the loop if it is earlier).
        alarm = destinations.reduce(nextScan) { earliest, destination in
            guard passes[destination] == nil, let due = nextDue[destination], due > moment else { return earliest }
            return min(earliest, due)
        }
        return .saturating(milliseconds: ((alarm - moment) * 1_000).rounded(.up))
    }

    /// After a pass (or the start of a destination's attempts): when the destination must be looked at next — the
    /// end of its hold, or the first message falling due after `lookedAt`, the date of the pass's last look at its
    /// due messages (one query per pass, none per idle poll). Messages due by then and left were held by another
    /// process's claim, wait for an attempt of their host to end (which starts them), or met a store error: a date
    /// that early would wake the loop at once, again and again. One that fell due since the look is not left: it
    /// was in neither (counting from the time of this query instead left such a retry to the next poll, a minute
    /// later).
    func scheduleNextLook(_ destination: String, lookedAt: Double) {
        if let hold = holds[destination], hold.until > now {
            setNextDue(destination, hold.until)
        } else {
            setNextDue(destination, (try? store.nextDue(destinations: [destination], after: lookedAt)) ?? .infinity)
        }
        notifyWaiters()
    }

    /// Records when `destination` next has a message due, waking the background loop earlier when it sleeps past it.
    func setNextDue(_ destination: String, _ date: Double) {
        nextDue[destination] = date
        if date < alarm, loop != nil { rearm() }
    }

    /// Marks a destination as having a message due now (one was just stored for it).
    func noteDue(_ destination: String) {
        nextDue[destination] = -.infinity
        kick(destination)
    }

    /// Makes sure a pass runs for `destination` (or runs again, when one is under way).
    func kick(_ destination: String) {
        guard loop != nil, let courier = couriers[destination] else { return }
        if case .independent(let perHost, let total) = courier.ordering {
            startDeliveries(destination, courier: courier, maximumPerHost: perHost, maximumInFlight: total)
            return
        }
        if passes[destination] != nil {
            rerun.insert(destination)
            return
        }
        passes[destination] = Task { await self.pass(destination) }
    }

    /// Delivers the due messages of one destination, oldest first, until none is left or the destination is held
    /// back.
    func pass(_ destination: String) async {
        var lookedAt = now
        defer {
            passes[destination] = nil
            scheduleNextLook(destination, lookedAt: lookedAt)
        }
        guard let courier = couriers[destination] else { return }
        while !Task.isCancelled {
            rerun.remove(destination)
            if let hold = holds[destination], hold.until > now { return }
            checkFile()
            lookedAt = now
            guard let due = duePage(destination, at: lookedAt) else { return }
            if due.messages.isEmpty, due.quarantined.isEmpty, !rerun.contains(destination) { return }
            for message in due.messages {
                guard !Task.isCancelled else { return }
                guard let id = message.id, !inFlight.contains(id) else { continue }
                guard let claimed = claim(id, of: destination) else { return }
                guard claimed else { continue }
                inFlight.insert(id)
                let outcome = await courier.deliver(message)
                inFlight.remove(id)
                let goesOn = record(outcome, of: message, id: id, courier: courier, holdsDestination: true,
                                    abandoned: Task.isCancelled)
                notifyWaiters()
                if !goesOn { return }
            }
        }
    }

    /// A destination's messages due at `moment` after the row `after`, the rows set aside on the way logged; `nil`
    /// when the store failed (logged).
    func duePage(_ destination: String, at moment: Double, after: Int64 = 0) -> OutboxStore.DuePage? {
        let page: OutboxStore.DuePage
        do {
            page = try store.due(destination: destination, at: moment, limit: configuration.batchSize, after: after)
        } catch {
            logger.error("outbox delivery failed", metadata: ["destination": "\(destination)", "error": "\(error)"])
            return nil
        }
        for row in page.quarantined {
            logger.error("an outbox row could not be read back and was set aside", metadata: [
                "destination": "\(destination)", "id": "\(row.id)", "reason": "\(row.reason)",
            ])
        }
        return page
    }

    /// Claims a message for one attempt: whether this outbox may send it (`false`: another live process is sending
    /// it); `nil` when the store failed (logged).
    func claim(_ id: Int64, of destination: String) -> Bool? {
        do {
            let moment = now
            return try store.claim(id, until: moment + configuration.claimDuration.seconds, now: moment)
        } catch {
            logger.error("outbox claim failed", metadata: ["destination": "\(destination)", "error": "\(error)"])
            return nil
        }
    }

    /// Stores what became of an attempt; whether the destination's pass goes on to its next message.
    /// - Parameters:
    ///   - holdsDestination: whether a transient failure holds the whole destination back (messages in order).
    ///   - abandoned: the attempt was cancelled (a drain's deadline, ``stop()``): not a failure of the destination.
    func record(_ outcome: DeliveryOutcome, of message: OutboxMessage, id: Int64, courier: any OutboxCourier,
                        holdsDestination: Bool, abandoned: Bool) -> Bool {
        let destination = message.destination
        do {
            switch outcome {
            case .delivered:
                try store.remove(id, counting: "delivered", at: now)
                counts[destination, default: OutboxRunCounts()].delivered += 1
                if message.createdAt < openedAt { counts[destination, default: OutboxRunCounts()].deliveredFromEarlierRuns += 1 }
                if let pause = holds[destination]?.pause {
                    logger.notice("destination delivers again", metadata: ["destination": "\(destination)", "was": "\(pause)"])
                }
                holds[destination] = nil
                return true
            case .reject(let reason):
                logger.error("message refused for good, dropped", metadata: [
                    "destination": "\(destination)", "key": "\(message.key)", "reason": "\(reason)",
                ])
                try store.remove(id, counting: "rejected", at: now)
                counts[destination, default: OutboxRunCounts()].rejected += 1
                return true
            case .split(let reason):
                guard let pieces = courier.split(message), pieces.count > 1 else {
                    logger.error("message refused as too large and cannot be cut further, dropped", metadata: [
                        "destination": "\(destination)", "key": "\(message.key)", "reason": "\(reason)",
                    ])
                    try store.remove(id, counting: "rejected", at: now)
                    counts[destination, default: OutboxRunCounts()].rejected += 1
                    return true
                }
                logger.notice("message refused as too large: cut in pieces, each delivered on its own", metadata: [
                    "destination": "\(destination)", "key": "\(message.key)", "pieces": "\(pieces.count)",
                    "reason": "\(reason)",
                ])
                let keyed = pieces.enumerated().map { index, piece in
                    var piece = piece
                    piece.key = "\(message.key).\(index + 1)"
                    return piece
                }
                try store.replace(id, with: keyed, at: now)
                counts[destination, default: OutboxRunCounts()].split += 1
                return true
            case .retry(let reason, let after):
                let attempts = message.attempts + 1
                // A server's Retry-After is honoured (up to the longest wait the configuration allows).
                let asked = min(after ?? .zero, configuration.maximumRetryAfter)
                let delay = max(configuration.backoff(afterAttempt: attempts, random: random()), asked)
                if abandoned {
                    // Abandoned at a drain's deadline or by stop(): not a failure of the destination.
                    logger.debug("delivery abandoned, the message stays stored", metadata: ["destination": "\(destination)"])
                } else {
                    // Said once per destination and reason (a server that is down fails every attempt alike); the
                    // run's counts keep the number of attempts and the latest reason.
                    let level: Logger.Level = counts[destination]?.latestFailure == "\(reason)" ? .debug : .warning
                    logger.log(level: level, "delivery failed, will retry", metadata: [
                        "destination": "\(destination)", "attempt": "\(attempts)", "reason": "\(reason)",
                        "retryIn": "\(delay)",
                    ])
                }
                counts[destination, default: OutboxRunCounts()].latestFailure = "\(reason)"
                let next = now + delay.seconds
                let notBefore = asked > .zero ? now + asked.seconds : nil
                try store.reschedule(id, attempts: attempts, nextAttemptAt: next, notBefore: notBefore, error: reason)
                counts[destination, default: OutboxRunCounts()].retried += 1
                // In order, the destination waits as its first message does: a server that is down gets one request
                // per backoff, not one per message. Messages on their own wait alone.
                if holdsDestination {
                    holds[destination] = Hold(until: next, pause: holds[destination]?.pause, askedByServer: notBefore != nil)
                }
                return false
            case .pause(let reason):
                try store.release(id)
                if holds[destination]?.pause != reason {
                    logger.error("destination paused: it refuses its messages, which are kept", metadata: [
                        "destination": "\(destination)", "reason": "\(reason)",
                        "retryIn": "\(configuration.pauseDuration)",
                    ])
                }
                holds[destination] = Hold(until: now + configuration.pauseDuration.seconds, pause: reason)
                return false
            }
        } catch {
            logger.error("outbox update failed", metadata: ["destination": "\(destination)", "error": "\(error)"])
            noteWriteFailure(error)
            return false
        }
    }

    // MARK: - Independent messages

    /// Starts attempts at the due messages of a destination whose messages are independent, oldest first, while its
    /// limits allow: at most `maximumInFlight` at once, `maximumPerHost` to one host. A message whose host is at its
    /// limit is passed over for later ones (other hosts'); it starts when an attempt of its host ends.
    func startDeliveries(_ destination: String, courier: any OutboxCourier, maximumPerHost: Int,
                                 maximumInFlight: Int) {
        let lookedAt = now
        defer { scheduleNextLook(destination, lookedAt: lookedAt) }
        if let hold = holds[destination], hold.until > now { return }
        checkFile()
        var after: Int64 = 0
        while running[destination, default: 0] < maximumInFlight {
            guard let page = duePage(destination, at: lookedAt, after: after) else { return }
            for message in page.messages {
                guard running[destination, default: 0] < maximumInFlight else { break }
                guard let id = message.id, !inFlight.contains(id) else { continue }
                let lane = destination + " " + Self.host(of: message)
                guard runningPerHost[lane, default: 0] < maximumPerHost else { continue }
                guard let claimed = claim(id, of: destination) else { return }
                guard claimed else { continue }
                inFlight.insert(id)
                running[destination, default: 0] += 1
                runningPerHost[lane, default: 0] += 1
                deliveries[id] = (destination, Task {
                    let outcome = await courier.deliver(message)
                    self.finished(outcome, of: message, id: id, lane: lane, courier: courier, abandoned: Task.isCancelled)
                })
            }
            if page.isLast { return }
            after = page.lastRow
        }
    }

    /// Records an attempt at an independent message, and starts what its freed place allows.
    func finished(_ outcome: DeliveryOutcome, of message: OutboxMessage, id: Int64, lane: String,
                          courier: any OutboxCourier, abandoned: Bool) {
        let destination = message.destination
        deliveries[id] = nil
        inFlight.remove(id)
        running[destination, default: 1] -= 1
        runningPerHost[lane, default: 1] -= 1
        if runningPerHost[lane] == 0 { runningPerHost[lane] = nil }
        _ = record(outcome, of: message, id: id, courier: courier, holdsDestination: false, abandoned: abandoned)
        if !abandoned, loop != nil, case .independent(let perHost, let total) = courier.ordering {
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
