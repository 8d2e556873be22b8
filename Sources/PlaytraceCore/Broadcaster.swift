
/// Delivers each value to every current subscriber, each through its own `AsyncStream`.
///
/// Engines and components use it to publish events to any number of observers (the Player, a CLI status line,
/// a test). A subscriber that stops iterating is removed when its stream terminates. Each subscriber's buffer
/// is bounded (oldest values dropped first) so that a stalled observer cannot grow memory without limit.
///
/// ```swift
/// let events = Broadcaster<Int>()
/// let stream = events.subscribe()
/// events.yield(1)
/// ```
public final class Broadcaster<Element: Sendable>: Sendable {
    private struct State {
        var continuations: [Int: AsyncStream<Element>.Continuation] = [:]
        var nextID = 0
        var isFinished = false
    }

    private let state = Locked(State())
    private let bufferLimit: Int

    /// Creates a broadcaster; each subscriber keeps at most `bufferLimit` undelivered values.
    public init(bufferLimit: Int = 10_000) { self.bufferLimit = bufferLimit }

    /// A new stream of the values yielded from now on.
    public func subscribe() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: .bufferingNewest(bufferLimit))
        let id: Int? = state.withLock { state in
            guard !state.isFinished else { return nil }
            let id = state.nextID
            state.nextID += 1
            state.continuations[id] = continuation
            return id
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    /// Sends a value to every subscriber.
    public func yield(_ value: Element) {
        let continuations = state.withLock { Array($0.continuations.values) }
        for continuation in continuations { continuation.yield(value) }
    }

    /// Ends every stream; later subscribers get a finished stream.
    public func finish() {
        let continuations = state.withLock { state in
            state.isFinished = true
            defer { state.continuations.removeAll() }
            return Array(state.continuations.values)
        }
        for continuation in continuations { continuation.finish() }
    }

    /// The number of current subscribers.
    public var subscriberCount: Int { state.withLock { $0.continuations.count } }
}
