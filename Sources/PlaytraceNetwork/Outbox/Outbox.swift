import Foundation
public import Logging
public import PlaytraceCore

/// Durable, bounded, retrying delivery: what must reach a server (telemetry batches, ad beacons) goes through it.
///
/// It has two doors: ``persist(_:)``, for a caller that goes on once its message is on disk (an ad beacon, whose
/// key says whether an earlier run sent it), and ``submit(destination:metadata:compressing:payload:)``, for a caller
/// that must not wait at all (a telemetry backend on the thread that emits events).
///
/// - Messages are persisted in SQLite (GRDB) before ``persist(_:)`` returns, and removed only once delivered or
///   refused for good: a crash, a `kill -9` or a server down for an hour loses nothing; the next start resumes.
/// - Once started, delivery runs in the background: a message leaves as soon as it is enqueued, destinations in
///   parallel. A destination's messages go one at a time in order, or each on its own, as its courier says
///   (``OutboxOrdering``): telemetry batches in order, ad beacons each to its own vendor, no beacon waiting on
///   another's failures.
/// - Each message is sent once, and again only after an attempt failed. A message being sent is claimed in the
///   file, so that processes sharing one file (and a flush racing the background delivery) never send it twice;
///   each message keeps a stable key (its `Idempotency-Key`) across retries and restarts, and a message enqueued
///   twice with the same key is stored once — also after its delivery, for a message that asks its key to be
///   remembered (``OutboxMessage/remembersKey``: ad beacons, which a restarted session may fire anew).
/// - Transient failures (no response, 5xx, 429) are retried with exponential backoff and jitter (no sooner than a
///   server's `Retry-After`), holding back the whole destination when its messages go in order, the message alone
///   otherwise; a refusal of the destination's own set-up (401, 403, 404) pauses it and keeps its messages; a
///   message too large for the server (413) is cut in pieces, each delivered on its own; a refusal of one message
///   (400) drops that message, counted and logged with the server's message.
/// - The file is watched: deleted, replaced or truncated under the outbox, or no longer writable, it is said at once
///   in the log and in every flush's and drain's result (``fileProblem()``), never taken for storage.
/// - The store is bounded in bytes and in age; what the bounds drop is counted (``statistics()``) and logged. A row
///   that cannot be read back is set aside and reported, never retried, and blocks nothing.
///
/// ```swift
/// let outbox = try Outbox(path: "/var/lib/app/outbox.sqlite", couriers: [HTTPCourier(name: "influx", transport: t)])
/// await outbox.start()                                  // delivery in the background from now on
/// try await outbox.persist(OutboxMessage(destination: "influx", payload: lines, metadata: ["url": writeURL]))
/// let rest = await outbox.drain(within: .seconds(10))   // at the end of a session: what could not go in time
/// ```
public actor Outbox {
    public nonisolated let configuration: OutboxConfiguration
    nonisolated let store: OutboxStore
    let couriers: [String: any OutboxCourier]
    /// The destinations delivered here, in order of name; messages for others stay stored (bounds apply) for an
    /// outbox that has their courier — a run with other backends configured, `playtrace outbox --deliver`.
    public nonisolated let destinations: [String]
    nonisolated let wallClock: WallClock
    nonisolated let logger: Logger
    let random: @Sendable () -> Double
    /// The background loop that looks for messages falling due, while started.
    var loop: Task<Void, Never>?
    /// The delivery pass running for each destination: one at a time per destination, destinations in parallel.
    var passes: [String: Task<Void, Never>] = [:]
    /// Destinations whose pass looks again before it ends (a message was enqueued meanwhile).
    var rerun: Set<String> = []
    /// Messages this process is sending.
    var inFlight: Set<Int64> = []
    /// The attempts under way for destinations whose messages are independent (``OutboxOrdering/independent``).
    var deliveries: [Int64: (destination: String, task: Task<Void, Never>)] = [:]
    /// How many of those attempts run, by destination and by destination and host.
    var running: [String: Int] = [:]
    var runningPerHost: [String: Int] = [:]
    /// What this outbox did since it was opened, by destination.
    var counts: [String: OutboxRunCounts] = [:]
    /// When this outbox was opened (seconds since 1970): messages stored before were left by an earlier run.
    nonisolated let openedAt: Double
    /// Destinations left alone until a date: after a transient failure (backoff) or a pause.
    var holds: [String: Hold] = [:]
    /// When each destination next has a message due, as far as this outbox knows (its own enqueues, and the store
    /// read at the end of each pass): the background loop wakes and starts a pass only then, so that an idle
    /// outbox neither polls nor queries. Every ``OutboxConfiguration/pollInterval`` it looks in the file anyway,
    /// for messages that other processes sharing it stored.
    var nextDue: [String: Double] = [:]
    /// When the background loop wakes next (seconds since 1970): the earliest of `nextDue` and `nextScan`.
    var alarm = Double.infinity
    /// When the background loop next looks for every destination's messages in the file.
    var nextScan = -Double.infinity
    /// Flushes and drains waiting for delivery to settle, resumed whenever something changes.
    var waiters: [CheckedContinuation<Void, Never>] = []
    var nextDrainID = 0
    var expiredDrains: Set<Int> = []
    /// Messages handed over with ``submit(destination:metadata:compressing:payload:)``, not stored yet.
    nonisolated let submissions: SubmissionQueue
    /// How many times the background loop woke (for tests: an idle or blocked outbox must not spin).
    package internal(set) var loopWakes = 0

    struct Hold {
        var until: Double
        /// Why the destination is paused; `nil` for a backoff.
        var pause: String?
        /// Whether the server asked for the wait (Retry-After): a drain does not cut it short.
        var askedByServer = false
    }

    /// Opens an outbox.
    /// - Parameters:
    ///   - path: the SQLite file (created when missing); `nil` keeps messages in memory only.
    ///   - couriers: who delivers each destination.
    ///   - configuration: retries, backoff and bounds.
    ///   - clock: the clock of backoffs and polling (a test clock in tests); dates follow it from `origin`.
    ///   - origin: the date the clock's start stands for (now, by default).
    ///   - random: the jitter source, 0..<1 (fixed in tests).
    ///   - logger: where delivery problems are said.
    /// - Throws: ``OutboxError`` when the file is not an SQLite database, cannot be written, or is another
    ///   program's database (which is left untouched).
    public init(path: String?, couriers: [any OutboxCourier], configuration: OutboxConfiguration = OutboxConfiguration(),
                clock: any Clock<Duration> = ContinuousClock(), origin: StreamDate? = nil,
                random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
                logger: Logger = Logger(label: "playtrace.outbox")) throws {
        store = try OutboxStore(path: path)
        self.couriers = Dictionary(couriers.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        destinations = self.couriers.keys.sorted()
        self.configuration = configuration
        wallClock = origin.map { WallClock(clock: clock, origin: $0) } ?? WallClock(clock: clock)
        self.random = random
        self.logger = logger
        submissions = SubmissionQueue(capacity: configuration.maximumSubmitted)
        openedAt = wallClock.now.secondsSince1970
    }

    deinit { loop?.cancel() }

    nonisolated var now: Double { wallClock.now.secondsSince1970 }
    /// The date before which stored messages and remembered keys are too old to keep.
    nonisolated var oldestKept: Double { now - configuration.maximumAge.seconds }

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
            inserted = try await store.insertInBackground(message, rememberedSince: oldestKept)
            if inserted { try enforceBounds() }
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
            let inserted = try await store.insertAllInBackground(messages, rememberedSince: oldestKept)
            if inserted.contains(true) { try enforceBounds() }
        } catch {
            for message in messages {
                do {
                    if try await store.insertInBackground(message, rememberedSince: oldestKept) { try enforceBounds() }
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

    /// Starts delivering in the background: what is due now, each message as it is enqueued, and retries as they
    /// fall due (each at its own time; the file is looked through every ``OutboxConfiguration/pollInterval``).
    public func start() {
        guard loop == nil else { return }
        rearm()
    }

    /// Stops the background delivery. Attempts under way are abandoned; every message stays stored.
    public func stop() {
        loop?.cancel()
        loop = nil
        for pass in passes.values { pass.cancel() }
        for delivery in deliveries.values { delivery.task.cancel() }
        rerun.removeAll()
    }

    /// Tries every waiting message now, backoff aside, and returns once each has had its attempt (each bounded by
    /// its courier's timeout). A destination that fails is not tried further in this flush: its messages stay
    /// stored, with their backoff, for later.
    @discardableResult
    public func flush() async -> OutboxDrain {
        await settle(within: nil, only: nil)
    }

    /// Delivers what waits, backoff aside, retrying failures as their backoff allows, until nothing deliverable is
    /// left or `timeout` has passed; then abandons the attempts under way. What is left stays stored (for the next
    /// run when the outbox has a file); the result says how much, and which destinations are paused and why.
    /// - Parameters:
    ///   - timeout: the most time spent delivering.
    ///   - only: the destinations drained (all by default); the others go on in the background.
    @discardableResult
    public func drain(within timeout: Duration, only: Set<String>? = nil) async -> OutboxDrain {
        await settle(within: timeout, only: only)
    }

    /// What became of the messages whose key starts with `prefix`: those stored, and those delivered or refused
    /// whose key is remembered (``OutboxMessage/remembersKey``). A producer resuming after a restart reads what
    /// it had already handed over.
    public nonisolated func keyStates(withPrefix prefix: String) throws -> [String: OutboxKeyState] {
        try store.keyStates(withPrefix: prefix)
    }

    /// What the outbox file did in its whole life (every run that used it), and what waits.
    public func statistics() throws -> OutboxStatistics {
        checkFile()
        return try store.statistics()
    }

    /// What this outbox did since it was opened, by destination: this run's figures.
    public func runCounts() -> [String: OutboxRunCounts] { counts }

    /// What happened to the outbox's file while in use, if anything did: deleted, replaced by another file, truncated
    /// or no longer writable by SQLite. Checked now; once noticed it stays, and it was logged as an
    /// error the moment it was noticed. `nil` for an outbox in memory, or a file that is fine.
    public nonisolated func fileProblem() -> String? {
        checkFile()
        return store.watch?.problem
    }

    /// The destinations paused because they refuse their messages for a reason of their own set-up, with that
    /// reason (cleared when one of their messages is delivered again).
    public func pausedDestinations() -> [String: String] {
        holds.compactMapValues(\.pause)
    }

    /// When the next stored message this outbox can deliver is due (seconds since 1970), if any.
    public func nextAttemptDate() throws -> Double? {
        try store.nextDue(destinations: destinations)
    }
}
