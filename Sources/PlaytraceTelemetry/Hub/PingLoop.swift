import PlaytraceCore

/// The heartbeat of one tracker: emits Ping every interval while a playback runs (from its Start to its end).
///
/// Starting and stopping the heartbeat happen on the thread that emits Start and End; they only set or clear the
/// time of the next ping, under a lock. The loop that sleeps until that time outlives the playback by up to one
/// interval, so back-to-back playbacks reuse it: no task is made at a Start, and none is cancelled at an End (each
/// would wake a thread from the emitting one). A loop that finds no playback when it wakes ends; the next Start
/// makes a new one.
final class PingLoop: Sendable {
    private struct State {
        /// When the next ping is due, on the instrument's stopwatch; `nil` while no playback runs.
        var next: Duration?
        /// Whether a loop task is alive (sleeping or emitting).
        var isRunning = false
        var task: Task<Void, Never>?
    }

    private let interval: Duration
    private let tracker: TrackerID
    private let state = Locked(State())

    init(interval: Duration, tracker: TrackerID) {
        self.interval = interval
        self.tracker = tracker
    }

    /// Whether the loop task is alive (an idle loop can be forgotten).
    var isRunning: Bool { state.withLock { $0.isRunning } }

    /// The playback started: the first ping is due one interval from now.
    func start(instrument: Instrument) {
        let stopwatch = instrument.wallClock.stopwatch
        let due = stopwatch.elapsed + interval
        let mustRun = state.withLock { state in
            state.next = due
            defer { state.isRunning = true }
            return !state.isRunning
        }
        guard mustRun else { return }
        let tracker = tracker
        let ping: @Sendable () -> Bool = { [weak instrument] in
            guard let instrument else { return false }
            instrument.emit(.ping, tracker: tracker)
            return true
        }
        let task = Task { [weak self] in
            guard let self else { return }
            await self.run(stopwatch: stopwatch, ping: ping)
        }
        state.withLock { $0.task = task }
    }

    /// The playback ended: no more pings (the loop ends when it next wakes, unless a playback starts before).
    func stop() {
        state.withLock { $0.next = nil }
    }

    /// Ends the loop now (the instrument shuts down).
    func end() {
        state.withLock { state in
            state.next = nil
            state.task?.cancel()
            state.task = nil
        }
    }

    /// `ping` emits a Ping, `false` when the instrument is gone.
    private func run(stopwatch: Stopwatch, ping: @Sendable () -> Bool) async {
        while !Task.isCancelled {
            let now = stopwatch.elapsed
            enum Step { case ping, sleep(Duration), end }
            let step: Step = state.withLock { state in
                guard let next = state.next else {
                    state.isRunning = false
                    state.task = nil
                    return .end
                }
                guard now >= next else { return .sleep(next - now) }
                state.next = next + interval
                return .ping
            }
            switch step {
            case .end:
                return
            case .ping:
                guard ping() else { return }
            case .sleep(let duration):
                do { try await stopwatch.sleep(for: duration) } catch { return }
            }
        }
    }
}
