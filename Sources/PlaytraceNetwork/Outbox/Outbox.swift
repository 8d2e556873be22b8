public import Logging
public import PlaytraceCore

/// Durable, bounded, retrying delivery: what must reach a server (telemetry batches, ad beacons) goes through it.
///
/// - Messages are persisted in SQLite (GRDB) before ``enqueue(_:)`` returns, and removed only once delivered or
///   refused for good: a crash, a `kill -9` or a server down for an hour loses nothing; the next start resumes.
/// - Delivery is at least once; each message keeps a stable key (its idempotency key) across retries and restarts,
///   and a message enqueued twice with the same key is stored once.
/// - Transient failures (no response, 5xx, 429) are retried with exponential backoff and jitter; permanent ones
///   (4xx) are dropped, counted and logged with the server's message.
/// - The store is bounded in bytes and in age; what the bounds drop is counted (``statistics()``) and logged.
///
/// ```swift
/// let outbox = try Outbox(path: "/var/lib/app/outbox.sqlite", couriers: [HTTPCourier(name: "influx", transport: t)])
/// await outbox.start()
/// try await outbox.enqueue(OutboxMessage(destination: "influx", payload: lines, metadata: ["url": writeURL]))
/// await outbox.flush()        // at session end and on shutdown
/// ```
public actor Outbox {
    public nonisolated let configuration: OutboxConfiguration
    private nonisolated let store: OutboxStore
    private let couriers: [String: any OutboxCourier]
    /// The destinations delivered here; messages for others stay stored (bounds apply) for an outbox that has
    /// their courier — a run with other backends configured, `playtrace outbox --deliver`.
    private let destinations: [String]
    private nonisolated let wallClock: WallClock
    private nonisolated let logger: Logger
    private let random: @Sendable () -> Double
    private var loop: Task<Void, Never>?
    private var isDelivering = false

    /// Opens an outbox.
    /// - Parameters:
    ///   - path: the SQLite file (created when missing); `nil` keeps messages in memory only.
    ///   - couriers: who delivers each destination.
    ///   - clock: the clock of backoffs and polling (a test clock in tests); dates follow it from `origin`.
    ///   - random: the jitter source, 0..<1 (fixed in tests).
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
    }

    deinit { loop?.cancel() }

    private nonisolated var now: Double { wallClock.now.secondsSince1970 }

    /// Persists a message for delivery, synchronously (it is on disk when this returns, so callers without `await`
    /// — a backend on the instrument's path — hand it over for good); returns `false` when a message with its key
    /// is already stored.
    @discardableResult
    public nonisolated func enqueue(_ message: OutboxMessage) throws -> Bool {
        var message = message
        message.createdAt = now
        message.nextAttemptAt = now
        message.attempts = 0
        let inserted = try store.insert(message)
        try enforceBounds()
        if inserted { Task { await self.deliverDueIfRunning() } }
        return inserted
    }

    private func deliverDueIfRunning() async {
        guard loop != nil else { return }
        await deliverDue()
    }

    /// Starts delivering in the background (due messages, then whenever new ones are enqueued or retries fall due).
    public func start() {
        guard loop == nil else { return }
        let clock = wallClock.stopwatch
        let interval = configuration.pollInterval
        loop = Task { [weak self] in
            while !Task.isCancelled {
                await self?.deliverDue()
                do { try await clock.sleep(for: interval) } catch { return }
            }
        }
    }

    /// Stops the background delivery (messages stay stored).
    public func stop() {
        loop?.cancel()
        loop = nil
    }

    /// Tries to deliver every stored message now, backoff aside — at the end of a session and on shutdown. Messages
    /// that still fail stay stored (with their backoff) for later.
    public func flush() async {
        do {
            try enforceBounds()
            var attempted = Set<Int64>()
            while true {
                let batch = try store.due(at: .infinity, limit: configuration.batchSize, destinations: destinations)
                    .filter { !attempted.contains($0.id ?? -1) }
                guard !batch.isEmpty else { return }
                for message in batch {
                    attempted.insert(message.id ?? -1)
                    try await attempt(message)
                }
            }
        } catch {
            logger.error("outbox flush failed", metadata: ["error": "\(error)"])
        }
    }

    /// What the outbox did so far, and what waits.
    public func statistics() throws -> OutboxStatistics {
        try store.statistics()
    }

    /// When the next stored message this outbox can deliver is due (seconds since 1970), if any.
    public func nextAttemptDate() throws -> Double? {
        try store.nextDue(destinations: destinations)
    }

    /// Delivers the messages that are due, oldest first.
    func deliverDue() async {
        guard !isDelivering else { return }
        isDelivering = true
        defer { isDelivering = false }
        do {
            try enforceBounds()
            while true {
                let batch = try store.due(at: now, limit: configuration.batchSize, destinations: destinations)
                guard !batch.isEmpty else { return }
                for message in batch { try await attempt(message) }
            }
        } catch {
            logger.error("outbox delivery failed", metadata: ["error": "\(error)"])
        }
    }

    private func attempt(_ message: OutboxMessage) async throws {
        guard let id = message.id, let courier = couriers[message.destination] else { return }
        switch await courier.deliver(message) {
        case .delivered:
            try store.remove(id, counting: "delivered")
        case .reject(let reason):
            logger.error("message refused for good, dropped", metadata: [
                "destination": "\(message.destination)", "key": "\(message.key)", "reason": "\(reason)",
            ])
            try store.remove(id, counting: "rejected")
        case .retry(let reason):
            let attempts = message.attempts + 1
            let delay = configuration.backoff(afterAttempt: attempts, random: random())
            logger.warning("delivery failed, will retry", metadata: [
                "destination": "\(message.destination)", "attempt": "\(attempts)", "reason": "\(reason)",
                "retryIn": "\(delay)",
            ])
            try store.reschedule(id, attempts: attempts, nextAttemptAt: now + delay.seconds, error: reason)
        }
    }

    private nonisolated func enforceBounds() throws {
        let dropped = try store.enforceBounds(oldest: now - configuration.maximumAge.seconds,
                                              maximumBytes: configuration.maximumBytes)
        if dropped > 0 {
            logger.warning("outbox bounds reached: oldest messages dropped", metadata: ["dropped": "\(dropped)"])
        }
    }
}
