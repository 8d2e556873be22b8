import Foundation
import Logging
import PlaytraceCore

/// The file, flushing and draining: what the end of a session waits for.
extension Outbox {
    // MARK: - The file

    /// Looks at the file; logs what happened to it the first time it is noticed.
    nonisolated func checkFile() {
        guard let (problem, isNew) = store.watch?.check(), isNew else { return }
        reportFileProblem(problem)
    }

    /// Records a failure of SQLite to write the file; logs it the first time.
    nonisolated func noteWriteFailure(_ error: any Error) {
        guard let watch = store.watch, !(error is CancellationError) else { return }
        let (problem, isNew) = watch.noteWriteFailure("\(error)")
        if isNew { reportFileProblem(problem) }
    }

    nonisolated func reportFileProblem(_ problem: String) {
        let held = (try? store.statistics()).map { "\($0.pending)" } ?? "unknown"
        logger.error("the outbox file was \(problem): the messages it held are lost at exit", metadata: [
            "path": "\(store.watch?.path ?? "")", "waiting": "\(held)",
        ])
    }

    // MARK: - Flush and drain

    func settle(within window: Duration?, only: Set<String>?) async -> OutboxDrain {
        let drained = only.map { only in destinations.filter(only.contains) } ?? destinations
        // What was submitted before is part of what is flushed: stored now, not at the storing task's next look.
        while !submissions.isIdle {
            submissions.wake()
            await withCheckedContinuation { waiters.append($0) }
        }
        let beginning = now
        let horizon = beginning + (window?.seconds ?? 0)
        do {
            try enforceBounds()
            try store.makeDue(at: beginning, destinations: drained)
        } catch {
            logger.error("outbox flush failed", metadata: ["error": "\(error)"])
        }
        // Backoff aside: a destination held back by a failure is tried again now; a paused one stays paused, and one
        // whose server asked for a wait (Retry-After) waits: what falls due after the drain's end stays stored.
        holds = holds.filter { $0.value.pause != nil || $0.value.askedByServer || !drained.contains($0.key) }
        nextDue.removeAll()
        let startedHere = loop == nil
        // Started, or woken at once when it sleeps: every destination is due now.
        rearm()
        let id = nextDrainID
        nextDrainID += 1
        let deadline = window.map { window in
            Task { [weak self, stopwatch = wallClock.stopwatch] in
                do { try await stopwatch.sleep(for: window) } catch { return }
                await self?.expire(id)
            }
        }
        while !expiredDrains.contains(id), !isSettled(drained, horizon: horizon) {
            await withCheckedContinuation { waiters.append($0) }
        }
        deadline?.cancel()
        let timedOut = expiredDrains.remove(id) != nil
        if timedOut {
            // The time is up: attempts under way are abandoned (their messages stay stored).
            for (destination, pass) in passes where drained.contains(destination) { pass.cancel() }
            for delivery in deliveries.values where drained.contains(delivery.destination) { delivery.task.cancel() }
        }
        if startedHere { loop?.cancel(); loop = nil }
        checkFile()
        let byDestination = (try? store.statistics().pendingByDestination) ?? [:]
        let pending = byDestination.filter { drained.contains($0.key) }.values.reduce(0, +)
        var heldByServer: [String: Double] = [:]
        for destination in drained where (byDestination[destination] ?? 0) > 0 {
            if let hold = holds[destination], hold.askedByServer, hold.until > horizon {
                heldByServer[destination] = hold.until
            } else if let date = try? store.nextNotBefore(destination: destination, after: horizon) {
                heldByServer[destination] = date
            }
        }
        return OutboxDrain(pending: pending, paused: pausedDestinations(), timedOut: timedOut, lost: submissions.lost,
                           pendingByDestination: byDestination, fileProblem: store.watch?.problem,
                           retryAfter: heldByServer)
    }

    /// Whether nothing this outbox can deliver to `drained` is left before `horizon`: no pass or attempt of theirs
    /// running, and each destination either empty of due messages or held back past the horizon.
    func isSettled(_ drained: [String], horizon: Double) -> Bool {
        guard submissions.isIdle, !passes.keys.contains(where: drained.contains),
              !deliveries.values.contains(where: { drained.contains($0.destination) }) else { return false }
        let moment = now
        for destination in drained {
            if let hold = holds[destination], hold.until > horizon { continue }
            do {
                if try store.deliverableCount(destination: destination, dueBy: horizon, now: moment) > 0 { return false }
            } catch {
                logger.error("outbox flush failed", metadata: ["error": "\(error)"])
                return true
            }
        }
        return true
    }

    func expire(_ id: Int) {
        expiredDrains.insert(id)
        notifyWaiters()
    }

    func notifyWaiters() {
        let waiting = waiters
        waiters.removeAll()
        for waiter in waiting { waiter.resume() }
    }

    nonisolated func enforceBounds() throws {
        let dropped = try store.enforceBounds(oldest: oldestKept,
                                              maximumBytes: configuration.maximumBytes)
        if dropped > 0 {
            logger.warning("outbox bounds reached: oldest messages dropped", metadata: ["dropped": "\(dropped)"])
        }
    }
}
