import Foundation
import Logging
import PlaytraceCore

/// Intake: the two doors a message comes in by, and the storing task behind the one that does not wait. Its state is
/// the ``SubmissionQueue`` (messages submitted and not stored yet) and the store itself.
extension Outbox {
    /// Persists a message for delivery: it is on disk when this returns, written on the store's own queue (the
    /// caller's thread is not blocked while SQLite writes). Returns `false` when a message with its key is already
    /// stored, or was delivered and its key remembered (``OutboxMessage/remembersKey``). Once the outbox is
    /// started, delivery begins at once.
    @discardableResult
    public nonisolated func persist(_ message: OutboxMessage) async throws -> Bool {
        var message = message
        message.createdAt = now
        message.nextAttemptAt = now
        message.attempts = 0
        checkFile()
        let inserted: Bool
        do {
            let insertion = try await store.insertInBackground(message, rememberedSince: oldestKept, bounds: bounds)
            inserted = insertion.inserted
            noteDropped(insertion.dropped)
        } catch {
            noteWriteFailure(error)
            throw error
        }
        if inserted { await noteDue(message.destination) }
        return inserted
    }

    /// Hands a message over without blocking: compression (when `compressing`: gzip, with its `Content-Encoding`
    /// header) and the SQLite write happen on a background task, in the order of submission; delivery follows as
    /// with ``persist(_:)``. For callers on a thread that must not wait: a telemetry backend on the instrument's
    /// path, the player's main actor.
    ///
    /// The caller's thread only queues the message: it does not even wake the storing task while that task is
    /// resting between looks (waking a thread costs its waker several microseconds), only when it has gone idle
    /// (see ``OutboxConfiguration/storeInterval``). So a message is on disk at most
    /// ``OutboxConfiguration/storeInterval`` after it is submitted, plus one compression and one SQLite transaction;
    /// ``flush()`` and ``drain(within:only:)`` first store the messages submitted before them, at once. A message that
    /// cannot be stored, or that finds ``OutboxConfiguration/maximumSubmitted`` messages still waiting to be, is
    /// logged and counted as lost (``OutboxDrain/lost``).
    ///
    /// The payload is made by `payload` on the background task (a copy out of the caller's buffer, say), and the
    /// message's idempotency key is drawn there too.
    /// - Parameters:
    ///   - destination: the courier that delivers it.
    ///   - metadata: what the courier needs (URL, method, headers).
    ///   - compressing: gzip the payload (with its `Content-Encoding` header).
    ///   - payload: makes the payload, once, off the caller's thread.
    public nonisolated func submit(destination: String, metadata: [String: String] = [:], compressing: Bool = false,
                                   payload: @escaping @Sendable () -> [UInt8]) {
        let message = OutboxMessage(key: "", destination: destination, payload: [], metadata: metadata)
        queue(SubmissionQueue.Item(message: message, compressing: compressing, payload: payload))
    }

    nonisolated func queue(_ item: SubmissionQueue.Item) {
        var item = item
        item.message.createdAt = now
        item.message.nextAttemptAt = item.message.createdAt
        item.message.attempts = 0
        switch submissions.add(item) {
        case .queued(let startsStorer):
            if startsStorer { Task { await self.storeSubmissions() } }
        case .refused(let firstOfOverflow):
            guard firstOfOverflow else { return }
            logger.error("the outbox cannot store messages as fast as they are submitted: submissions are lost until it catches up", metadata: [
                "destination": "\(item.message.destination)", "waiting": "\(configuration.maximumSubmitted)",
            ])
        }
    }

    /// Stores what was submitted, off the submitters' threads and off the actor. Between looks it rests
    /// ``OutboxConfiguration/storeInterval``; after ``OutboxConfiguration/storeLinger`` without a submission it
    /// ends, and the next submission starts it again.
    nonisolated func storeSubmissions() async {
        var lastWork = now
        var rest = configuration.storeInterval
        while true {
            guard var items = submissions.take() else {
                if now - lastWork >= configuration.storeLinger.seconds {
                    if submissions.park() { return }
                    continue
                }
                await submissions.rest(for: rest, on: wallClock.stopwatch)
                // A look that finds nothing is followed by a whole interval's rest.
                rest = configuration.storeInterval
                continue
            }
            lastWork = now
            // Messages coming faster than one a rest: look sooner, so that what waits in memory stays small (and
            // its buffers are reused while still warm) rather than piling up for a whole interval.
            rest = items.count > 1 ? configuration.storeInterval / 16 : configuration.storeInterval
            let taken = items.count
            var messages: [OutboxMessage] = []
            messages.reserveCapacity(taken)
            for index in items.indices {
                var message = items[index].message
                if let payload = items[index].payload {
                    message.payload = payload()
                    // What made the payload is let go at once (a telemetry batch's buffer goes back to its batcher
                    // for the next batch), not once the whole look is stored.
                    items[index].payload = nil
                }
                if message.key.isEmpty { message.key = RandomUUID.lowercasedString() }
                if items[index].compressing {
                    do {
                        message.payload = try Gzip.compress(message.payload)
                        message.metadata["header.Content-Encoding"] = "gzip"
                    } catch {
                        lose(message, error)
                        continue
                    }
                }
                messages.append(message)
            }
            items = []
            await store(messages)
            submissions.finished(taken)
            await notifyWaiters()
        }
    }

    /// Stores what one look took, in one SQLite transaction; if that fails, one message at a time, so that a
    /// message that cannot be stored does not take the others with it.
    nonisolated func store(_ messages: [OutboxMessage]) async {
        guard !messages.isEmpty else { return }
        checkFile()
        do {
            noteDropped(try await store.insertAllInBackground(messages, rememberedSince: oldestKept, bounds: bounds).dropped)
        } catch {
            for message in messages {
                do {
                    noteDropped(try await store.insertInBackground(message, rememberedSince: oldestKept, bounds: bounds).dropped)
                } catch {
                    lose(message, error)
                }
            }
        }
        var noted: Set<String> = []
        for message in messages where noted.insert(message.destination).inserted { await noteDue(message.destination) }
    }

    /// Counts and logs a submitted message that could not be stored.
    nonisolated func lose(_ message: OutboxMessage, _ error: any Error) {
        submissions.countLost()
        noteWriteFailure(error)
        logger.error("a message could not be stored for delivery, and is lost", metadata: [
            "destination": "\(message.destination)", "bytes": "\(message.payload.count)", "error": "\(error)",
        ])
    }
}
