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
    private nonisolated let store: OutboxStore
    private let couriers: [String: any OutboxCourier]
    /// The destinations delivered here, in order of name; messages for others stay stored (bounds apply) for an
    /// outbox that has their courier — a run with other backends configured, `playtrace outbox --deliver`.
    public nonisolated let destinations: [String]
    private nonisolated let wallClock: WallClock
    private nonisolated let logger: Logger
    private let random: @Sendable () -> Double
    /// The background loop that looks for messages falling due, while started.
    private var loop: Task<Void, Never>?
    /// The delivery pass running for each destination: one at a time per destination, destinations in parallel.
    private var passes: [String: Task<Void, Never>] = [:]
    /// Destinations whose pass looks again before it ends (a message was enqueued meanwhile).
    private var rerun: Set<String> = []
    /// Messages this process is sending.
    private var inFlight: Set<Int64> = []
    /// The attempts under way for destinations whose messages are independent (``OutboxOrdering/independent``).
    private var deliveries: [Int64: (destination: String, task: Task<Void, Never>)] = [:]
    /// How many of those attempts run, by destination and by destination and host.
    private var running: [String: Int] = [:]
    private var runningPerHost: [String: Int] = [:]
    /// What this outbox did since it was opened, by destination.
    private var counts: [String: OutboxRunCounts] = [:]
    /// When this outbox was opened (seconds since 1970): messages stored before were left by an earlier run.
    private nonisolated let openedAt: Double
    /// Destinations left alone until a date: after a transient failure (backoff) or a pause.
    private var holds: [String: Hold] = [:]
    /// When each destination next has a message due, as far as this outbox knows (its own enqueues, and the store
    /// read at the end of each pass): the background loop wakes and starts a pass only then, so that an idle
    /// outbox neither polls nor queries. Every ``OutboxConfiguration/pollInterval`` it looks in the file anyway,
    /// for messages that other processes sharing it stored.
    private var nextDue: [String: Double] = [:]
    /// When the background loop wakes next (seconds since 1970): the earliest of `nextDue` and `nextScan`.
    private var alarm = Double.infinity
    /// When the background loop next looks for every destination's messages in the file.
    private var nextScan = -Double.infinity
    /// Flushes and drains waiting for delivery to settle, resumed whenever something changes.
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var nextDrainID = 0
    private var expiredDrains: Set<Int> = []
    /// Messages handed over with ``submit(destination:metadata:compressing:payload:)``, not stored yet.
    private nonisolated let submissions: SubmissionQueue

    private struct Hold {
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

    private nonisolated var now: Double { wallClock.now.secondsSince1970 }
    /// The date before which stored messages and remembered keys are too old to keep.
    private nonisolated var oldestKept: Double { now - configuration.maximumAge.seconds }

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

    private nonisolated func queue(_ item: SubmissionQueue.Item) {
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
    private nonisolated func storeSubmissions() async {
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
    private nonisolated func store(_ messages: [OutboxMessage]) async {
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
    private nonisolated func lose(_ message: OutboxMessage, _ error: any Error) {
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

    // MARK: - Delivery

    /// (Re)starts the background loop, which wakes at the outbox's alarm: the loop sleeping now may be set for later
    /// than a date that just became known.
    private func rearm() {
        loop?.cancel()
        let stopwatch = wallClock.stopwatch
        loop = Task { [weak self] in
            while !Task.isCancelled {
                guard let wait = await self?.tick() else { return }
                do { try await stopwatch.sleep(for: wait) } catch { return }
            }
        }
    }

    /// How many times the background loop woke (for tests: an idle or blocked outbox must not spin).
    package private(set) var loopWakes = 0

    /// Starts the passes that are due, and returns how long the loop may sleep before the next one.
    private func tick() -> Duration {
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
    private func scheduleNextLook(_ destination: String, lookedAt: Double) {
        if let hold = holds[destination], hold.until > now {
            setNextDue(destination, hold.until)
        } else {
            setNextDue(destination, (try? store.nextDue(destinations: [destination], after: lookedAt)) ?? .infinity)
        }
        notifyWaiters()
    }

    /// Records when `destination` next has a message due, waking the background loop earlier when it sleeps past it.
    private func setNextDue(_ destination: String, _ date: Double) {
        nextDue[destination] = date
        if date < alarm, loop != nil { rearm() }
    }

    /// Marks a destination as having a message due now (one was just stored for it).
    private func noteDue(_ destination: String) {
        nextDue[destination] = -.infinity
        kick(destination)
    }

    /// Makes sure a pass runs for `destination` (or runs again, when one is under way).
    private func kick(_ destination: String) {
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
    private func pass(_ destination: String) async {
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
    private func duePage(_ destination: String, at moment: Double, after: Int64 = 0) -> OutboxStore.DuePage? {
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
    private func claim(_ id: Int64, of destination: String) -> Bool? {
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
    private func record(_ outcome: DeliveryOutcome, of message: OutboxMessage, id: Int64, courier: any OutboxCourier,
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
    private func startDeliveries(_ destination: String, courier: any OutboxCourier, maximumPerHost: Int,
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
    private func finished(_ outcome: DeliveryOutcome, of message: OutboxMessage, id: Int64, lane: String,
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
    private static func host(of message: OutboxMessage) -> String {
        guard let text = message.metadata["url"], let components = URLComponents(string: text) else { return "" }
        return (components.host ?? "") + ":" + (components.port.map(String.init) ?? components.scheme ?? "")
    }

    // MARK: - The file

    /// Looks at the file; logs what happened to it the first time it is noticed.
    private nonisolated func checkFile() {
        guard let (problem, isNew) = store.watch?.check(), isNew else { return }
        reportFileProblem(problem)
    }

    /// Records a failure of SQLite to write the file; logs it the first time.
    private nonisolated func noteWriteFailure(_ error: any Error) {
        guard let watch = store.watch, !(error is CancellationError) else { return }
        let (problem, isNew) = watch.noteWriteFailure("\(error)")
        if isNew { reportFileProblem(problem) }
    }

    private nonisolated func reportFileProblem(_ problem: String) {
        let held = (try? store.statistics()).map { "\($0.pending)" } ?? "unknown"
        logger.error("the outbox file was \(problem): the messages it held are lost at exit", metadata: [
            "path": "\(store.watch?.path ?? "")", "waiting": "\(held)",
        ])
    }

    // MARK: - Flush and drain

    private func settle(within window: Duration?, only: Set<String>?) async -> OutboxDrain {
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
    private func isSettled(_ drained: [String], horizon: Double) -> Bool {
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

    private func expire(_ id: Int) {
        expiredDrains.insert(id)
        notifyWaiters()
    }

    private func notifyWaiters() {
        let waiting = waiters
        waiters.removeAll()
        for waiter in waiting { waiter.resume() }
    }

    private nonisolated func enforceBounds() throws {
        let dropped = try store.enforceBounds(oldest: oldestKept,
                                              maximumBytes: configuration.maximumBytes)
        if dropped > 0 {
            logger.warning("outbox bounds reached: oldest messages dropped", metadata: ["dropped": "\(dropped)"])
        }
    }
}
