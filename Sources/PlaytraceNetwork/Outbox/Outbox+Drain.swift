import Foundation
import Logging
import PlaytraceCore

/// Flush and drain: what the end of a session waits for. Its state is ``SettleWaiters``.
extension Outbox {
    /// The flushes and drains waiting for delivery to settle, resumed whenever something changes.
    struct SettleWaiters {
        var waiters: [CheckedContinuation<Void, Never>] = []
        /// The drains whose time is up.
        var expired: Set<Int> = []
        private var nextID = 0

        /// A new drain's number.
        mutating func newDrain() -> Int {
            defer { nextID += 1 }
            return nextID
        }

        /// The waiters, each to be resumed once.
        mutating func takeWaiters() -> [CheckedContinuation<Void, Never>] {
            defer { waiters.removeAll() }
            return waiters
        }
    }

    func settle(within window: Duration?, only: Set<String>?) async -> OutboxDrain {
        let drained = only.map { only in destinations.filter(only.contains) } ?? destinations
        // What was submitted before is part of what is flushed: stored now, not at the storing task's next look.
        while !submissions.isIdle {
            submissions.wake()
            await withCheckedContinuation { settling.waiters.append($0) }
        }
        let beginning = wallClock.now
        let horizon = beginning + (window ?? .zero)
        do {
            try enforceBounds()
            try store.makeDue(at: beginning.secondsSince1970, destinations: drained)
        } catch {
            logger.error("outbox flush failed", metadata: ["error": "\(error)"])
        }
        // Backoff aside: a destination held back by a failure is tried again now; a paused one stays paused, and one
        // whose server asked for a wait (Retry-After) waits: what falls due after the drain's end stays stored.
        holds.endBackoffs(of: drained)
        schedule.nextDue.removeAll()
        let startedHere = schedule.loop == nil
        // Started, or woken at once when it sleeps: every destination is due now.
        rearm()
        let id = settling.newDrain()
        let deadline = window.map { window in
            Task { [weak self, stopwatch = wallClock.stopwatch] in
                do { try await stopwatch.sleep(for: window) } catch { return }
                await self?.expire(id)
            }
        }
        while !settling.expired.contains(id), !isSettled(drained, horizon: horizon) {
            await withCheckedContinuation { settling.waiters.append($0) }
        }
        deadline?.cancel()
        let timedOut = settling.expired.remove(id) != nil
        if timedOut {
            // The time is up: attempts under way are abandoned (their messages stay stored).
            for (destination, pass) in passes.running where drained.contains(destination) { pass.cancel() }
            independent.cancel(for: drained)
        }
        if startedHere {
            schedule.loop?.cancel()
            schedule.loop = nil
        }
        checkFile()
        let byDestination = (try? store.statistics().pendingByDestination) ?? [:]
        let pending = byDestination.filter { drained.contains($0.key) }.values.reduce(0, +)
        var heldByServer: [String: Double] = [:]
        for destination in drained where (byDestination[destination] ?? 0) > 0 {
            if let hold = holds[destination], hold.askedByServer, hold.until > horizon {
                heldByServer[destination] = hold.until.secondsSince1970
            } else if let date = try? store.nextNotBefore(destination: destination, after: horizon.secondsSince1970) {
                heldByServer[destination] = date
            }
        }
        return OutboxDrain(pending: pending, paused: pausedDestinations(), timedOut: timedOut, lost: submissions.lost,
                           pendingByDestination: byDestination, fileProblem: store.watch?.problem,
                           retryAfter: heldByServer)
    }

    /// Whether nothing this outbox can deliver to `drained` is left before `horizon`: no pass or attempt of theirs
    /// running, and each destination either empty of due messages or held back past the horizon.
    func isSettled(_ drained: [String], horizon: StreamDate) -> Bool {
        guard submissions.isIdle, !passes.running.keys.contains(where: drained.contains),
              !independent.isRunning(for: drained) else { return false }
        let moment = now
        for destination in drained {
            if holds.heldUntil(destination, after: horizon) != nil { continue }
            do {
                if try store.deliverableCount(destination: destination, dueBy: horizon.secondsSince1970, now: moment) > 0 {
                    return false
                }
            } catch {
                logger.error("outbox flush failed", metadata: ["error": "\(error)"])
                return true
            }
        }
        return true
    }

    func expire(_ id: Int) {
        settling.expired.insert(id)
        notifyWaiters()
    }

    /// Something changed: every flush and drain waiting looks again.
    func notifyWaiters() {
        for waiter in settling.takeWaiters() { waiter.resume() }
    }
}
