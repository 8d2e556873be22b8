import Foundation
import PlaytraceCore
import PlaytraceSession
import Synchronization

/// Writes a session's output. On a terminal, a live panel (``panel(_:)``) is redrawn in place at the bottom while
/// messages scroll above it; elsewhere (a file, a pipe, `--plain`) status lines are printed every few seconds, as
/// plain lines.
///
/// Every write goes out whole under one lock (the signal handler's thread writes too), so that a frame is never
/// interleaved with a message; the panel is redrawn by moving up over it and rewriting each line, without clearing
/// the screen, so that it does not flicker.
final class ConsoleOutput: Sendable {
    let isTerminal: Bool
    /// The panel's lines as last drawn (none when no panel is up).
    private let shown = Mutex<[String]>([])

    /// - Parameter plain: plain lines even on a terminal (`--plain`).
    init(plain: Bool = false) {
        isTerminal = !plain && isatty(STDOUT_FILENO) == 1
    }

    /// A status line: printed as a line when the output is not a terminal (on a terminal the panel shows it).
    ///
    /// Every line this type writes passes through ``PlainText/safe(_:)`` first: text from the network (ids, titles,
    /// URLs, bodies) that reaches a line drives no terminal. The panel's own styles are added after that, by
    /// ``LiveView``, which escapes what it draws itself.
    func status(_ line: String) {
        if isTerminal {
            panel([PlainText.safe(line)])
        } else {
            StandardStreams.printLine(PlainText.safe(line))
        }
    }

    /// Replaces the live panel with `lines` (a terminal only), each cut to the terminal's width so that none wraps.
    func panel(_ lines: [String]) {
        guard isTerminal else { return }
        let width = TerminalSize.columns
        let fitted = lines.map { TerminalText.fit($0, width: width - 1) }
        shown.withLock { shown in
            Self.writeNow(Self.erase(shown.count) + fitted.joined(separator: "\n"))
            shown = fitted
        }
    }

    /// A message: above the panel on a terminal.
    func message(_ line: String) {
        let line = PlainText.safe(line)
        // Plain output goes through standard output's buffer, as every other line of the command does, in order.
        guard isTerminal else { return StandardStreams.printLine(line) }
        shown.withLock { shown in
            guard !shown.isEmpty else { return Self.writeNow(line + "\n") }
            Self.writeNow(Self.erase(shown.count) + line + "\n" + shown.joined(separator: "\n"))
        }
    }

    /// A notice on standard error, above the panel on a terminal (the panel is redrawn below it).
    func notice(_ line: String) {
        let line = PlainText.safe(line)
        shown.withLock { shown in
            guard !shown.isEmpty else { return StandardStreams.writeError("\n" + line + "\n") }
            Self.writeNow(Self.erase(shown.count))
            StandardStreams.writeError(line + "\n")
            Self.writeNow(shown.joined(separator: "\n"))
        }
    }

    /// Takes the panel down: the terminal is as it was before it, and what follows prints below the messages.
    func endStatus() {
        shown.withLock { shown in
            guard !shown.isEmpty else { return }
            Self.writeNow(Self.erase(shown.count))
            shown = []
        }
    }

    private static func writeNow(_ text: String) {
        StandardStreams.writeOutput(text)
    }

    /// From the end of a panel of `count` lines back to its first line's start, each line cleared.
    private static func erase(_ count: Int) -> String {
        guard count > 0 else { return "" }
        return "\r\u{1B}[2K" + String(repeating: "\u{1B}[1A\u{1B}[2K", count: count - 1)
    }
}

/// The terminal's width.
enum TerminalSize {
    static var columns: Int {
        var size = winsize()
        #if canImport(Glibc)
        let request = UInt(TIOCGWINSZ)
        #else
        let request = TIOCGWINSZ
        #endif
        guard ioctl(STDOUT_FILENO, request, &size) == 0, size.ws_col > 10 else { return 80 }
        return Int(size.ws_col)
    }
}
