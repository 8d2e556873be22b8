import Foundation
import Synchronization

/// Ctrl-C (SIGINT) and SIGTERM for a playing session: the first one asks the session to end the way its normal end
/// does (summary printed, trackers disabled, telemetry flushed within its bound); a second one exits at once.
final class SessionInterruption: Sendable {
    private final class Received: Sendable {
        let signal = Atomic<Int32>(0)
    }

    private let received = Received()
    // Set once here and only cancelled afterwards; dispatch sources are safe to cancel from any thread.
    nonisolated(unsafe) private let sources: [any DispatchSourceSignal]

    /// The signal received first, if any.
    var signal: Int32? {
        let value = received.signal.load(ordering: .acquiring)
        return value == 0 ? nil : value
    }

    /// The exit status a shell gives a process ended by the signal (130 for SIGINT, 143 for SIGTERM).
    var exitStatus: Int32? { signal.map { 128 + $0 } }

    /// Starts listening for SIGINT and SIGTERM; their default action (ending the process) is off until `stop()`.
    init() {
        var installed: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            Foundation.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [received] in
                let (isFirst, _) = received.signal.compareExchange(
                    expected: 0, desired: number, ordering: .acquiringAndReleasing)
                guard isFirst else { _exit(128 + number) }
                let name = number == SIGINT ? "Ctrl-C" : "SIGTERM"
                FileHandle.standardError.write(Data("\n\(name): ending the session (again to quit at once)\n".utf8))
            }
            source.resume()
            installed.append(source)
        }
        sources = installed
    }

    /// Restores the default actions.
    func stop() {
        for source in sources { source.cancel() }
        for number in [SIGINT, SIGTERM] { Foundation.signal(number, SIG_DFL) }
    }
}
