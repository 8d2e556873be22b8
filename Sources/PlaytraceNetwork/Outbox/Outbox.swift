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
    /// When this outbox was opened: messages stored before were left by an earlier run.
    nonisolated let openedAt: StreamDate
    /// Intake (`Outbox+Intake.swift`): messages handed over with ``submit(destination:metadata:compressing:payload:)``,
    /// not stored yet.
    nonisolated let submissions: SubmissionQueue
    /// Delivery (`Outbox+Delivery.swift`): when the background loop wakes, the passes running, the destinations held
    /// back, and what this run did.
    var schedule = DeliverySchedule()
    var passes = DestinationPasses()
    var holds = DestinationHolds()
    var counts: [String: OutboxRunCounts] = [:]
    /// Independent messages (`Outbox+Independent.swift`): the attempts under way, by destination and host.
    var independent = IndependentAttempts()
    /// Flush and drain (`Outbox+Drain.swift`): who waits for delivery to settle.
    var settling = SettleWaiters()
    /// How many times the background loop woke (for tests: an idle or blocked outbox must not spin).
    package var loopWakes: Int { schedule.wakes }
    /// The SQL statements the store ran and the messages it read back so far (for tests: what a message costs).
    package nonisolated var storeActivity: (statements: Int, decoded: Int) {
        (store.activity.statements.load(ordering: .relaxed), store.activity.decoded.load(ordering: .relaxed))
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
        openedAt = wallClock.now
    }

    deinit { schedule.loop?.cancel() }

    nonisolated var now: Double { wallClock.now.secondsSince1970 }
    /// The date before which stored messages and remembered keys are too old to keep.
    nonisolated var oldestKept: Double { now - configuration.maximumAge.seconds }

    /// Starts delivering in the background: what is due now, each message as it is enqueued, and retries as they
    /// fall due (each at its own time; the file is looked through every ``OutboxConfiguration/pollInterval``).
    public func start() {
        guard schedule.loop == nil else { return }
        rearm()
    }

    /// Stops the background delivery. Attempts under way are abandoned; every message stays stored.
    public func stop() {
        schedule.loop?.cancel()
        schedule.loop = nil
        passes.cancelAll()
        independent.cancel()
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
        holds.pauses
    }

    /// When the next stored message this outbox can deliver is due (seconds since 1970), if any.
    public func nextAttemptDate() throws -> Double? {
        try store.nextDue(destinations: destinations)
    }
}
