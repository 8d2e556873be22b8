import Foundation
import Logging
import PlaytraceCore

/// The file: what happened to it under the outbox (``OutboxFileWatch``, the store's), and its bounds in bytes and
/// age.
extension Outbox {
    /// Looks at the file; logs what happened to it the first time it is noticed.
    nonisolated func checkFile() {
        guard let (problem, isNew) = store.watch?.check(), isNew else { return }
        reportFileProblem(problem)
    }

    /// Records a failure of SQLite to write the file; logs it the first time.
    nonisolated func noteWriteFailure(_ error: any Error) {
        guard let watch = store.watch, !(error is CancellationError) else { return }
        let (problem, isNew) = watch.noteWriteFailure("\(error)")
        if isNew { reportFileProblem(problem) }
    }

    nonisolated func reportFileProblem(_ problem: String) {
        let held = (try? store.statistics()).map { "\($0.pending)" } ?? "unknown"
        logger.error("the outbox file was \(problem): the messages it held are lost at exit", metadata: [
            "path": "\(store.watch?.path ?? "")", "waiting": "\(held)",
        ])
    }

    /// The store's bounds, as of now.
    nonisolated var bounds: OutboxStore.Bounds {
        OutboxStore.Bounds(oldest: oldestKept, maximumBytes: configuration.maximumBytes)
    }

    /// Enforces the bounds now (a flush, a drain); inserts enforce them in their own transaction.
    nonisolated func enforceBounds() throws {
        noteDropped(try store.enforce(bounds))
    }

    /// Says that the bounds dropped messages, if they did.
    nonisolated func noteDropped(_ dropped: Int) {
        if dropped > 0 {
            logger.warning("outbox bounds reached: oldest messages dropped", metadata: ["dropped": "\(dropped)"])
        }
    }
}
