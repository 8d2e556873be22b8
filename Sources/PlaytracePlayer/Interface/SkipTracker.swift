public import Observation

/// Turns repeated skip gestures into one growing skip, as video apps do with double taps (Pillarbox's
/// `SkipTracker`): the first `count` requests in a row in one direction start skipping, each further one within
/// ``delay`` of the last adds a skip; after ``delay`` without a request the tracker is inactive again. A request the
/// other way while skipping turns the skip around without starting over.
///
/// ```swift
/// let skips = SkipTracker(count: 2, delay: .milliseconds(400))
/// skips.player = player
/// skips.requestSkip(.forward)   // one tap: nothing (it may be a single tap)
/// skips.requestSkip(.forward)   // a double tap: 10 s forward, state .skippingForward(10 s)
/// skips.requestSkip(.forward)   // a third tap: 10 s more, state .skippingForward(20 s)
/// ```
@MainActor
@Observable
public final class SkipTracker {
    /// What the tracker is doing.
    public enum State: Sendable, Hashable {
        /// No skip under way.
        case inactive
        /// Skipping back, this far in all.
        case skippingBackward(Duration)
        /// Skipping forward, this far in all.
        case skippingForward(Duration)

        /// Whether a skip is under way.
        public var isSkipping: Bool { self != .inactive }
    }

    /// The player skips act on (none: no skips). Changing it forgets the requests so far.
    public var player: Player? {
        didSet {
            guard player !== oldValue else { return }
            counter = nil
        }
    }

    /// How many requests in a row start skipping.
    public let count: Int
    /// How long after the last request the tracker becomes inactive.
    public let delay: Duration

    /// What the tracker is doing.
    public var state: State {
        guard let player, let counter, counter.value >= count else { return .inactive }
        let skips = counter.value - count + 1
        switch counter.skip {
        case .backward: return .skippingBackward(player.configuration.backwardSkipInterval * skips)
        case .forward: return .skippingForward(player.configuration.forwardSkipInterval * skips)
        }
    }

    /// Whether a skip is under way.
    public var isSkipping: Bool { state.isSkipping }

    private struct Counter: Equatable {
        let skip: Skip
        let value: Int
    }

    private var counter: Counter?
    @ObservationIgnored private let clock: any Clock<Duration>
    @ObservationIgnored private var idleTask: Task<Void, Never>?

    /// Creates a tracker.
    /// - Parameters:
    ///   - count: how many requests in a row start skipping (2, a double tap, by default; at least 1).
    ///   - delay: how long after the last request the tracker becomes inactive (0.4 s by default).
    ///   - clock: the clock the delay runs on (a test clock in tests).
    public init(count: Int = 2, delay: Duration = .milliseconds(400), clock: any Clock<Duration> = ContinuousClock()) {
        self.count = max(count, 1)
        self.delay = max(delay, .milliseconds(1))
        self.clock = clock
    }

    isolated deinit { idleTask?.cancel() }

    /// Counts a skip gesture; returns whether it skipped (the player can skip that way and the count is reached).
    /// - Parameter skip: the direction.
    @discardableResult
    public func requestSkip(_ skip: Skip) -> Bool {
        guard let player, player.canSkip(skip) else { return false }
        counter = next(after: counter, with: skip)
        scheduleIdle()
        guard isSkipping else { return false }
        player.skip(skip)
        return true
    }

    /// Counts a backward skip gesture (``requestSkip(_:)``).
    @discardableResult
    public func requestSkipBackward() -> Bool { requestSkip(.backward) }

    /// Counts a forward skip gesture (``requestSkip(_:)``).
    @discardableResult
    public func requestSkipForward() -> Bool { requestSkip(.forward) }

    private func next(after counter: Counter?, with skip: Skip) -> Counter {
        guard let counter else { return Counter(skip: skip, value: 1) }
        if skip == counter.skip { return Counter(skip: skip, value: counter.value + 1) }
        // Turning around while skipping keeps skipping, from one skip the other way.
        return Counter(skip: skip, value: counter.value >= count ? count : 1)
    }

    private func scheduleIdle() {
        idleTask?.cancel()
        let clock = self.clock
        let delay = self.delay
        idleTask = Task { [weak self] in
            do { try await clock.sleep(for: delay) } catch { return }
            guard let self, !Task.isCancelled else { return }
            self.counter = nil
        }
    }
}
