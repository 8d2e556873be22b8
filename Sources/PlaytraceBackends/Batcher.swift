import PlaytraceCore

/// Collects a backend's encoded records into batches of bytes, closed when they reach a size or a record count, or
/// when the interval passes, and hands each batch over (to the Outbox). Thread-safe: the instrument appends while the
/// timer flushes. The InfluxDB backend writes line protocol into it, the New Relic backend JSON.
final class Batcher: Sendable {
    private struct State {
        var bytes: [UInt8] = []
        var records = 0
        var lastTimestamp: Int64 = .min
    }

    let maximumBytes: Int
    let maximumRecords: Int
    private let state = Locked(State())
    private let deliver: @Sendable (_ bytes: [UInt8]) -> Void
    private let timer = FlushTimer()

    /// A batcher that hands each closed batch's bytes to `deliver` (on the thread that closed it: the Outbox takes
    /// them at once and compresses and stores them on its own task).
    init(maximumBytes: Int, maximumRecords: Int, deliver: @escaping @Sendable (_ bytes: [UInt8]) -> Void) {
        self.maximumBytes = maximumBytes
        self.maximumRecords = maximumRecords
        self.deliver = deliver
    }

    /// Adds `records` records: `encode` appends them to the batch's bytes, asking `stamp` for each one's timestamp,
    /// which never repeats (two records of one series at the same instant would overwrite each other).
    func append(records: Int = 1, _ encode: (inout [UInt8], _ stamp: (Int64) -> Int64) -> Void) {
        let full: [UInt8]? = state.withLock { state in
            var last = state.lastTimestamp
            encode(&state.bytes) { timestamp in
                last = max(timestamp, last == .min ? timestamp : last + 1)
                return last
            }
            state.lastTimestamp = last
            state.records += records
            guard state.bytes.count >= maximumBytes || state.records >= maximumRecords else { return nil }
            return take(&state)
        }
        if let full { deliver(full) }
    }

    /// Hands over what has been collected.
    func flush() {
        if let bytes = state.withLock({ take(&$0) }) { deliver(bytes) }
    }

    /// Flushes every `interval` on `clock` until stopped.
    func startTimer(interval: Duration, clock: any Clock<Duration>) {
        timer.start(interval: interval, clock: clock) { [weak self] in self?.flush() }
    }

    func stopTimer() { timer.stop() }

    private func take(_ state: inout State) -> [UInt8]? {
        guard state.records > 0 else { return nil }
        let bytes = state.bytes
        // The next batch starts with room for as much as this one held: no chain of reallocations after each
        // hand-over.
        state.bytes = []
        state.bytes.reserveCapacity(bytes.count)
        state.records = 0
        return bytes
    }
}
