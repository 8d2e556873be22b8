import Foundation
import PlaytraceCore
import Synchronization

/// Ctrl-C (SIGINT), SIGTERM and SIGHUP (a closed terminal, a dropped ssh link) for a playing session: the first one asks the session to end the way its normal end
/// does (summary printed, trackers disabled, telemetry and beacons flushed within their bounds); a second one quits
/// at once, after flushing what was printed and writing what is known of the session (``lastWords``).
///
/// Signals of one kind that arrive together are one: `timeout` and a shell's job control signal the process and then
/// its group, so one SIGTERM often arrives twice within microseconds. A second signal counts only when it is of
/// another kind or comes more than ``coalescingWindow`` after the first.
final class SessionInterruption: Sendable {
    private struct Received {
        var signal: Int32 = 0
        var at: ContinuousClock.Instant?
    }

    /// What the signal handlers share with the session.
    private final class Shared: Sendable {
        let received = Mutex(Received())
        let quitAction = Mutex<(@Sendable () -> Void)?>(nil)
        let announce = Mutex<(@Sendable (String) -> Void)?>(nil)
    }

    private let shared = Shared()
    /// The signal sources, cancelled by ``stop()``.
    private let sources: Mutex<[any DispatchSourceSignal]>

    /// How far apart two signals of one kind must be to count as two.
    static let coalescingWindow: Duration = .seconds(1)

    /// The signal received first, if any.
    var signal: Int32? {
        let value = shared.received.withLock { $0.signal }
        return value == 0 ? nil : value
    }

    /// The exit status a shell gives a process ended by the signal (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP).
    var exitStatus: Int32? { signal.map { 128 + $0 } }

    /// What to do before quitting at once (write the summary known so far); replaces the last one given.
    func lastWords(_ action: @escaping @Sendable () -> Void) {
        shared.quitAction.withLock { $0 = action }
    }

    /// Says the first signal's notice through `action` (a live panel draws it above itself) rather than on standard
    /// error directly.
    func announce(with action: @escaping @Sendable (String) -> Void) {
        shared.announce.withLock { $0 = action }
    }

    /// On quitting at once, writes `data` (the summary as known now) to `path`.
    func writeOnQuit(_ data: Data, to path: String) {
        lastWords {
            let line: String
            do {
                try AtomicFile.write(data, to: path)
                line = "quit at once: what was known is in \(path)"
            } catch {
                line = PlainFailure("--summary-json \(path)", error: error).description
            }
            StandardStreams.writeError(PlainText.safe(line) + "\n")
        }
    }

    /// The signals that end a session: each ends it as its normal end does.
    static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// The signal's name as the notice says it.
    static func name(_ number: Int32) -> String {
        switch number {
        case SIGINT: "Ctrl-C"
        case SIGHUP: "SIGHUP"
        default: "SIGTERM"
        }
    }

    /// Starts listening for SIGINT, SIGTERM and SIGHUP; their default action (ending the process) is off until
    /// `stop()`.
    init() {
        var installed: [any DispatchSourceSignal] = []
        let shared = shared
        for number in Self.handled {
            Foundation.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                let now = ContinuousClock.now
                let verdict: Verdict = shared.received.withLock { state in
                    guard state.signal != 0, let first = state.at else {
                        state = Received(signal: number, at: now)
                        return .first
                    }
                    return state.signal == number && now - first < Self.coalescingWindow ? .same : .quit
                }
                switch verdict {
                case .same: return
                case .first:
                    let name = Self.name(number)
                    let notice = "\(name): ending the session (again to quit at once)"
                    if let announce = shared.announce.withLock({ $0 }) {
                        announce(notice)
                    } else {
                        StandardStreams.writeError("\n\(notice)\n")
                    }
                case .quit:
                    shared.quitAction.withLock { $0 }?()
                    StandardStreams.flush()
                    _exit(128 + number)
                }
            }
            source.resume()
            installed.append(source)
        }
        sources = Mutex(installed)
    }

    private enum Verdict { case first, same, quit }

    /// Restores the default actions.
    func stop() {
        sources.withLock { sources in
            for source in sources { source.cancel() }
        }
        for number in Self.handled { Foundation.signal(number, SIG_DFL) }
    }
}
