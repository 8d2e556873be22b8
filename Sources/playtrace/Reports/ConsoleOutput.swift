import Foundation

/// Writes status lines and messages to the terminal: a status line rewritten in place on a terminal, or printed
/// every few seconds when the output is a file or a pipe.
final class ConsoleOutput: Sendable {
    let isTerminal = isatty(STDOUT_FILENO) == 1

    func status(_ line: String) {
        if isTerminal {
            FileHandle.standardOutput.write(Data(("\r\u{1B}[K" + line).utf8))
        } else {
            print(line)
        }
    }

    func message(_ line: String) {
        if isTerminal { FileHandle.standardOutput.write(Data("\r\u{1B}[K".utf8)) }
        print(line)
    }

    func endStatus() {
        if isTerminal { FileHandle.standardOutput.write(Data("\n".utf8)) }
    }
}

enum Format {
    static func seconds(_ value: Double) -> String { String(format: "%.2f s", value) }

    static func seconds(_ value: Duration) -> String { seconds(Double(value.components.seconds) + Double(value.components.attoseconds) * 1e-18) }

    static func bytes(_ count: Int) -> String {
        if count >= 1_000_000 { return String(format: "%.1f MB", Double(count) / 1_000_000) }
        if count >= 1_000 { return String(format: "%.1f kB", Double(count) / 1_000) }
        return "\(count) B"
    }

    static func bitrate(_ bitsPerSecond: Double) -> String {
        if bitsPerSecond >= 1_000_000 { return String(format: "%.2f Mbit/s", bitsPerSecond / 1_000_000) }
        return String(format: "%.0f kbit/s", bitsPerSecond / 1_000)
    }
}
