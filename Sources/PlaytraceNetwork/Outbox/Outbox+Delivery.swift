import Foundation
import Logging
import PlaytraceCore

/// Delivery: the loop that looks for due messages, a pass per destination whose messages go in order, and what
/// becomes of each attempt. Its state: ``DeliverySchedule`` (when the loop wakes), ``DestinationPasses`` (the passes
/// running) and ``DestinationHolds`` (the destinations held back).
extension Outbox {
    /// When the background loop wakes, and why.
    struct DeliverySchedule {
        /// The background loop that looks for messages falling due, while started.
        var loop: Task<Void, Never>?
        /// When each destination next has a message due, as far as this outbox knows (its own enqueues, and the store
        /// read at the end of each pass): the background loop wakes and starts a pass only then, so that an idle
        /// outbox neither polls nor queries. Every ``OutboxConfiguration/pollInterval`` it looks in the file anyway,
        /// for messages that other processes sharing it stored.
        var nextDue: [String: StreamDate] = [:]
        /// When the background loop wakes next: the earliest of `nextDue` and `nextScan`.
        var alarm = StreamDate.distantFuture
        /// When the background loop next looks for every destination's messages in the file.
        var nextScan = StreamDate.distantPast
        /// How many times the loop woke.
        var wakes = 0
    }

    /// The passes over destinations whose messages go in order, one at a time per destination.
    struct DestinationPasses {
        /// The pass running for each destination.
        var running: [String: Task<Void, Never>] = [:]
        /// Destinations whose pass looks again before it ends (a message was enqueued meanwhile).
        var rerun: Set<String> = []
        /// Messages this process is sending (in a pass, or on their own).
        var inFlight: Set<Int64> = []

        /// Abandons every pass (their messages stay stored).
        mutating func cancelAll() {
            for pass in running.values { pass.cancel() }
            rerun.removeAll()
        }
    }

    /// The destinations left alone until a date: after a transient failure (backoff) or a pause.
    struct DestinationHolds {
        struct Hold {
            var until: StreamDate
            /// Why the destination is paused; `nil` for a backoff.
            var pause: String?
            /// Whether the server asked for the wait (Retry-After): a drain does not cut it short.
            var askedByServer = false
        }

        private var holds: [String: Hold] = [:]

        subscript(destination: String) -> Hold? {
            get { holds[destination] }
            set { holds[destination] = newValue }
        }

        /// When `destination` may be tried again, if it is held back past `date`.
        func heldUntil(_ destination: String, after date: StreamDate) -> StreamDate? {
            holds[destination].flatMap { $0.until > date ? $0.until : nil }
        }

        /// The paused destinations, with why.
        var pauses: [String: String] { holds.compactMapValues(\.pause) }

        /// Ends the backoffs of `destinations` (a flush tries them now); pauses and waits a server asked for stay.
        mutating func endBackoffs(of destinations: [String]) {
            holds = holds.filter { $0.value.pause != nil || $0.value.askedByServer || !destinations.contains($0.key) }
        }
    }

    /// (Re)starts the background loop, which wakes at the outbox's alarm: the loop sleeping now may be set for later
    /// than a date that just became known.
    func rearm() {
        schedule.loop?.cancel()
        let stopwatch = wallClock.stopwatch
        schedule.loop = Task { [weak self] in
            while !Task.isCancelled {
                guard let wait = await self?.tick() else { return }
                do { try await stopwatch.sleep(for: wait) } catch { return }
            }
        }
    }

    /// Starts the passes that are due, and returns how long the loop may sleep before the next one.
    func tick() -> Duration {
        schedule.wakes += 1
        let moment = wallClock.now
        let fullScan = moment >= schedule.nextScan
        if fullScan { schedule.nextScan = moment + configuration.pollInterval }
        for destination in destinations where fullScan || (schedule.nextDue[destination] ?? .distantPast) <= moment {
            kick(destination)
        }
        notifyWaiters()
        // A destination whose pass runs sets its date when the pass ends (and wakes the loop if it is earlier).
        schedule.alarm = destinations.reduce(schedule.nextScan) { earliest, destination in
            guard passes.running[destination] == nil, let due = schedule.nextDue[destination], due > moment else {
                return earliest
            }
            return min(earliest, due)
        }
        return .saturating(milliseconds: ((schedule.alarm.secondsSince1970 - moment.secondsSince1970) * 1_000).rounded(.up))
    }

    /// After a pass (or the start of a destination's attempts): when the destination must be looked at next — the
    /// end of its hold, or the first message falling due after `lookedAt`, the date of the pass's last look at its
    /// due messages (one query per pass, none per idle poll). Messages due by then and left were held by another
    /// process's claim, wait for an attempt of their host to end (which starts them), or met a store error: a date
    /// that early would wake the loop at once, again and again. One that fell due since the look is not left: it
    /// was in neither (counting from the time of this query instead left such a retry to the next poll, a minute
    /// later).
    func scheduleNextLook(_ destination: String, lookedAt: StreamDate) {
        if let until = holds.heldUntil(destination, after: wallClock.now) {
            setNextDue(destination, until)
        } else {
            let next = (try? store.nextDue(destinations: [destination], after: lookedAt.secondsSince1970)) ?? .infinity
            setNextDue(destination, StreamDate(secondsSince1970: next))
        }
        notifyWaiters()
    }

    /// Records when `destination` next has a message due, waking the background loop earlier when it sleeps past it.
    func setNextDue(_ destination: String, _ date: StreamDate) {
        schedule.nextDue[destination] = date
        if date < schedule.alarm, schedule.loop != nil { rearm() }
    }

    /// Marks a destination as having a message due now (one was just stored for it).
    func noteDue(_ destination: String) {
        schedule.nextDue[destination] = .distantPast
        kick(destination)
    }

    /// Makes sure a pass runs for `destination` (or runs again, when one is under way).
    func kick(_ destination: String) {
        guard schedule.loop != nil, let courier = couriers[destination] else { return }
        if case .independent(let perHost, let total) = courier.ordering {
            startDeliveries(destination, courier: courier, maximumPerHost: perHost, maximumInFlight: total)
            return
        }
        if passes.running[destination] != nil {
            passes.rerun.insert(destination)
            return
        }
        passes.running[destination] = Task { await self.pass(destination) }
    }

    /// Delivers the due messages of one destination, oldest first, until none is left or the destination is held
    /// back.
    func pass(_ destination: String) async {
        var lookedAt = wallClock.now
        defer {
            passes.running[destination] = nil
            scheduleNextLook(destination, lookedAt: lookedAt)
        }
        guard let courier = couriers[destination] else { return }
        while !Task.isCancelled {
            passes.rerun.remove(destination)
            if holds.heldUntil(destination, after: wallClock.now) != nil { return }
            checkFile()
            lookedAt = wallClock.now
            guard let due = duePage(destination, at: lookedAt) else { return }
            if due.messages.isEmpty, due.quarantined.isEmpty, !passes.rerun.contains(destination) { return }
            for message in due.messages {
                guard !Task.isCancelled else { return }
                guard let id = message.id, !passes.inFlight.contains(id) else { continue }
                guard let claimed = claim(id, of: destination) else { return }
                guard claimed else { continue }
                passes.inFlight.insert(id)
                let outcome = await courier.deliver(message)
                passes.inFlight.remove(id)
                let goesOn = record(outcome, of: message, id: id, courier: courier, holdsDestination: true,
                                    abandoned: Task.isCancelled)
                notifyWaiters()
                if !goesOn { return }
            }
        }
    }

    /// A destination's messages due at `moment`, the rows set aside on the way logged; `nil` when the store failed
    /// (logged).
    func duePage(_ destination: String, at moment: StreamDate) -> OutboxStore.DuePage? {
        logged(destination) {
            try store.due(destination: destination, at: moment.secondsSince1970, limit: configuration.batchSize)
        }
    }

    /// The page `read` makes, with the rows it set aside logged; `nil` when the store failed (logged).
    func logged(_ destination: String, _ read: () throws -> OutboxStore.DuePage) -> OutboxStore.DuePage? {
        let page: OutboxStore.DuePage
        do {
            page = try read()
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
                if message.createdAt < openedAt.secondsSince1970 { counts[destination, default: OutboxRunCounts()].deliveredFromEarlierRuns += 1 }
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
                    holds[destination] = DestinationHolds.Hold(until: StreamDate(secondsSince1970: next),
                                                               pause: holds[destination]?.pause, askedByServer: notBefore != nil)
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
                holds[destination] = DestinationHolds.Hold(until: wallClock.now + configuration.pauseDuration, pause: reason)
                return false
            }
        } catch {
            logger.error("outbox update failed", metadata: ["destination": "\(destination)", "error": "\(error)"])
            noteWriteFailure(error)
            return false
        }
    }
}

extension StreamDate {
    /// Before every date: what is due at once.
    static let distantPast = StreamDate(secondsSince1970: -.infinity)
    /// After every date: what is never due.
    static let distantFuture = StreamDate(secondsSince1970: .infinity)
}
