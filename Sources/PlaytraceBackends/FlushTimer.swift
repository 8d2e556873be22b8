import PlaytraceCore

/// Runs a backend's flush every interval on the instrument's clock, until stopped (restarting replaces the
/// previous run). Shared by the backends that batch.
final class FlushTimer: Sendable {
    private let task = Locked<Task<Void, Never>?>(nil)

    deinit { task.withLock { $0?.cancel() } }

    func start(interval: Duration, clock: any Clock<Duration>, _ action: @escaping @Sendable () -> Void) {
        let run = Task {
            while !Task.isCancelled {
                do { try await clock.sleep(for: interval) } catch { return }
                action()
            }
        }
        task.withLock {
            $0?.cancel()
            $0 = run
        }
    }

    func stop() {
        task.withLock {
            $0?.cancel()
            $0 = nil
        }
    }
}
