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
    private let deliver: @Sendable (ClosedBatch) -> Void
    private let timer = FlushTimer()
    /// The memory of batches already read, for the next ones.
    private let spares: SpareBuffers

    /// A batcher that hands each closed batch to `deliver`, whose reader gets its bytes with
    /// ``ClosedBatch/readBytes()`` (off the emitting thread, ideally: that is where the copy is made).
    init(maximumBytes: Int, maximumRecords: Int, deliver: @escaping @Sendable (ClosedBatch) -> Void) {
        self.maximumBytes = maximumBytes
        self.maximumRecords = maximumRecords
        self.deliver = deliver
        spares = SpareBuffers(maximumBytes: 2 * maximumBytes)
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
        if let full { deliver(ClosedBatch(full, spares: spares)) }
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
        if let full { deliver(ClosedBatch(full, spares: spares)) }
    }

    /// Hands over what has been collected.
    func flush() {
        if let batch = state.withLock({ take(&$0) }) { deliver(ClosedBatch(batch, spares: spares)) }
    }

    /// Flushes every `interval` on `clock` until stopped.
    func startTimer(interval: Duration, clock: any Clock<Duration>) {
        timer.start(interval: interval, clock: clock) { [weak self] in self?.flush() }
    }

    func stopTimer() { timer.stop() }

    private func take(_ state: inout State) -> Batch? {
        guard state.batch.records > 0 else { return nil }
        // The next batch starts in the memory of one already read, or with room for as much as this one held: no
        // chain of reallocations on the emitting thread after each hand-over.
        let capacity = state.batch.bytes.capacity
        defer {
            state.batch = Batch(bytes: spares.take().map(LineBuffer.init(reusing:)) ?? LineBuffer(capacity: capacity),
                                records: 0)
        }
        return state.batch
    }
}

/// A batch handed over by a ``Batcher``. Once it is gone (its bytes read and the reader done with it), its memory
/// goes back to the batcher for a later batch — so that the emitting thread writes into memory already in use
/// rather than into fresh pages, each of which costs it a page fault the first time it is touched.
final class ClosedBatch: Sendable {
    private let batch: Batcher.Batch
    private let spares: SpareBuffers

    fileprivate init(_ batch: Batcher.Batch, spares: SpareBuffers) {
        self.batch = batch
        self.spares = spares
    }

    /// The records in the batch.
    var records: Int { batch.records }

    /// The batch's bytes, copied out.
    func readBytes() -> [UInt8] { batch.bytes.bytes }

    deinit {
        // Nothing else holds the memory: the batcher made a new buffer when it closed this batch. A later batch
        // writes into it only once this object's last field has let it go (the writer checks).
        if let storage = batch.bytes.storage { spares.give(storage) }
    }
}

/// The memory of batches already read, kept (up to a bound in bytes) for the next batches.
final class SpareBuffers: Sendable {
    private let maximumBytes: Int
    private let spares = Locked((storages: [LineBuffer.Storage](), bytes: 0))

    init(maximumBytes: Int) {
        self.maximumBytes = maximumBytes
    }

    /// Keeps `storage` for a later batch, unless that would hold more than the bound.
    func give(_ storage: LineBuffer.Storage) {
        spares.withLock { spares in
            guard spares.bytes + storage.capacity <= maximumBytes else { return }
            spares.storages.append(storage)
            spares.bytes += storage.capacity
        }
    }

    /// Memory kept earlier, if any.
    func take() -> LineBuffer.Storage? {
        spares.withLock { spares in
            guard let storage = spares.storages.popLast() else { return nil }
            spares.bytes -= storage.capacity
            return storage
        }
    }
}
