import PlaytraceCore

/// Messages submitted and not yet stored, and whether a task is storing them.
final class SubmissionQueue: Sendable {
    /// What ``add(_:)`` did with an item.
    enum Addition {
        /// Queued; `startsStorer` when the caller must start a storing task (none is running).
        case queued(startsStorer: Bool)
        /// Refused (counted as lost): the queue holds its capacity. `firstOfOverflow` for the first refusal since
        /// the queue last had room.
        case refused(firstOfOverflow: Bool)
    }

    struct Item: Sendable {
        var message: OutboxMessage
        var compressing: Bool
        /// Makes the payload on the storing task (`nil`: the message has it).
        var payload: (@Sendable () -> [UInt8])?
    }

    private struct State {
        var items: [Item] = []
        /// Whether a storing task is running (storing, or resting between looks).
        var storing = false
        /// The storing task, resting until its next look (or until ``wake()``).
        var resting: CheckedContinuation<Void, Never>?
        /// A ``wake()`` came while the storing task was not resting: its next rest ends at once.
        var woken = false
        /// Taken by the storing task and not yet stored.
        var inHand = 0
        var lost = 0
        /// Whether a submission was refused since the queue last had room.
        var overflowing = false
    }

    private let state = Locked(State())
    /// The most items queued at once.
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Queues an item, unless ``capacity`` items wait already. A resting task is not woken: it finds the item at
    /// its next look.
    func add(_ item: Item) -> Addition {
        state.withLock { state in
            guard state.items.count < capacity else {
                state.lost += 1
                defer { state.overflowing = true }
                return .refused(firstOfOverflow: !state.overflowing)
            }
            state.items.append(item)
            defer { state.storing = true }
            return .queued(startsStorer: !state.storing)
        }
    }

    /// Everything queued, or `nil` when nothing is.
    func take() -> [Item]? {
        state.withLock { state in
            guard !state.items.isEmpty else { return nil }
            defer {
                state.items.removeAll()
                state.overflowing = false
            }
            state.inHand += state.items.count
            return state.items
        }
    }

    /// Ends the storing task's run when nothing is queued (`true`: the next ``add(_:)`` starts another one).
    func park() -> Bool {
        state.withLock { state in
            guard state.items.isEmpty else { return false }
            state.storing = false
            return true
        }
    }

    /// The storing task rests for `interval` on `stopwatch`'s clock, or until ``wake()``.
    func rest(for interval: Duration, on stopwatch: Stopwatch) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let woken = state.withLock { state in
                defer { state.woken = false }
                if !state.woken { state.resting = continuation }
                return state.woken
            }
            if woken {
                continuation.resume()
                return
            }
            Task {
                try? await stopwatch.sleep(for: interval)
                self.wake()
            }
        }
    }

    /// Ends the storing task's rest now, or its next one if it is not resting (a flush wants what was submitted
    /// stored).
    func wake() {
        state.withLock { state in
            defer { state.resting = nil }
            if state.resting == nil { state.woken = true }
            return state.resting
        }?.resume()
    }

    func finished(_ count: Int) {
        state.withLock { $0.inHand -= count }
    }

    /// Submitted messages that could not be stored.
    func countLost() { state.withLock { $0.lost += 1 } }

    var lost: Int { state.withLock { $0.lost } }

    /// Whether everything submitted has been stored (or failed to be).
    var isIdle: Bool { state.withLock { $0.items.isEmpty && $0.inHand == 0 } }
}
