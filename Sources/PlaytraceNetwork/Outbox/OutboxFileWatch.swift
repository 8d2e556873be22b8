import Foundation
import PlaytraceCore

/// Notices when an outbox file is taken away from the store that has it open: deleted, replaced by another file,
/// or truncated. SQLite keeps writing to the file it opened, so without a look at the path a deleted
/// file's messages would be "stored" in a file nobody can reach, and lost at exit without a word.
///
/// A look is a `stat` of the path (its device and inode against those of the file opened, its size against the
/// largest seen: an outbox file in write-ahead-log mode never shrinks, it has no auto-vacuum): a microsecond or two,
/// made before the store's writes and at every flush. The file is never opened here: closing a second descriptor
/// of a database file would drop the POSIX locks SQLite holds on it. A file overwritten in place shows as SQLite's
/// own errors, which the store reports (``noteWriteFailure(_:)``).
final class OutboxFileWatch: Sendable {
    let path: String
    private struct State {
        var device: UInt64
        var inode: UInt64
        var largestSize: Int64
        /// What happened to the file, once noticed; it stays.
        var problem: String?
    }
    private let state: Locked<State>

    /// Watches the file at `path`, as it is now (the store has just opened it).
    init?(path: String) {
        guard let status = Self.status(of: path) else { return nil }
        self.path = path
        state = Locked(State(device: UInt64(status.st_dev), inode: UInt64(status.st_ino),
                             largestSize: Int64(status.st_size), problem: nil))
    }

    /// What happened to the file, if anything did: checked now. Returns the problem once noticed, every time after;
    /// `isNew` the first time only.
    func check() -> (problem: String, isNew: Bool)? {
        if let problem { return (problem, false) }
        let status = Self.status(of: path)
        return state.withLock { state in
            if let problem = state.problem { return (problem, false) }
            let problem: String?
            if let status {
                if UInt64(status.st_dev) != state.device || UInt64(status.st_ino) != state.inode {
                    problem = "replaced by another file while in use"
                } else if Int64(status.st_size) < state.largestSize {
                    problem = "truncated while in use"
                } else {
                    state.largestSize = Int64(status.st_size)
                    problem = nil
                }
            } else {
                problem = "deleted while in use"
            }
            state.problem = problem
            return problem.map { ($0, true) }
        }
    }

    /// Records a failure of SQLite to write the file (a full disk, a file made read-only, an I/O error), unless a
    /// problem is already known; returns the problem.
    func noteWriteFailure(_ reason: String) -> (problem: String, isNew: Bool) {
        state.withLock { state in
            if let problem = state.problem { return (problem, false) }
            let problem = "no longer writable (\(reason))"
            state.problem = problem
            return (problem, true)
        }
    }

    /// The problem noticed so far, without looking again.
    var problem: String? { state.withLock { $0.problem } }

    private static func status(of path: String) -> stat? {
        var status = stat()
        return stat(path, &status) == 0 ? status : nil
    }
}
