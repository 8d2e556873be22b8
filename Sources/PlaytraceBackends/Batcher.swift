import PlaytraceCore

/// Collects a backend's encoded records into batches, closed when they reach a size or a point count, or when
/// the interval passes, and hands each batch over (to the Outbox). Thread-safe: the instrument appends while the
/// timer flushes.
final class Batcher: Sendable {
    struct Batch: Sendable {
        var bytes = LineBuffer()
        var records = 0
    }

    private struct State {
        var batch = Batch()
        var lastTimestamp: Int64 = .min
        /// What a line-protocol encoder keeps between records, under the same lock as the batch.
        var encoding = LineProtocolEncoder.ContextCache()
    }

    let maximumBytes: Int
    let maximumRecords: Int
    private let state = Locked(State())
    private let deliver: @Sendable (Batch) -> Void
    private let timer = FlushTimer()

    init(maximumBytes: Int, maximumRecords: Int, deliver: @escaping @Sendable (Batch) -> Void) {
        self.maximumBytes = maximumBytes
        self.maximumRecords = maximumRecords
        self.deliver = deliver
    }

    /// Adds a record; `encode` writes it and gets a timestamp that never repeats (so that two records of one
    /// series at the same instant do not overwrite each other).
    func append(timestamp: Int64, _ encode: (inout LineBuffer, Int64) -> Void) {
        let full: Batch? = state.withLock { state in
            let unique = max(timestamp, state.lastTimestamp == .min ? timestamp : state.lastTimestamp + 1)
            state.lastTimestamp = unique
            encode(&state.batch.bytes, unique)
            state.batch.records += 1
            guard state.batch.bytes.count >= maximumBytes || state.batch.records >= maximumRecords else { return nil }
            return take(&state)
        }
        if let full { deliver(full) }
    }

    /// Adds several records at once (one lock): `encode` writes them with the encoder's cache, asking `stamp` for
    /// each one's timestamp (made unique as ``append(timestamp:_:)`` does), and returns how many it wrote.
    func append(_ encode: (inout LineBuffer, inout LineProtocolEncoder.ContextCache, _ stamp: (Int64) -> Int64) -> Int) {
        let full: Batch? = state.withLock { state in
            var last = state.lastTimestamp
            let records = encode(&state.batch.bytes, &state.encoding) { timestamp in
                last = max(timestamp, last == .min ? timestamp : last + 1)
                return last
            }
            state.lastTimestamp = last
            state.batch.records += records
            guard state.batch.bytes.count >= maximumBytes || state.batch.records >= maximumRecords else { return nil }
            return take(&state)
        }
        if let full { deliver(full) }
    }

    /// Hands over what has been collected.
    func flush() {
        if let batch = state.withLock({ take(&$0) }) { deliver(batch) }
    }

    /// Flushes every `interval` on `clock` until stopped.
    func startTimer(interval: Duration, clock: any Clock<Duration>) {
        timer.start(interval: interval, clock: clock) { [weak self] in self?.flush() }
    }

    func stopTimer() { timer.stop() }

    private func take(_ state: inout State) -> Batch? {
        guard state.batch.records > 0 else { return nil }
        // The next batch starts with room for as much as this one held: no chain of reallocations on the emitting
        // thread after each hand-over.
        defer { state.batch = Batch(bytes: LineBuffer(capacity: state.batch.bytes.capacity), records: 0) }
        return state.batch
    }
}
