import ArgumentParser
import Foundation
import Logging
import PlaytraceCore

@main
struct Playtrace: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "playtrace",
        abstract: "Play media and know exactly what happened while it played.",
        discussion: "Without a subcommand, runs the demo: the lab starts on a free loopback port and its on-demand stream with ad breaks plays to the end.",
        version: PlaytraceVersion.current,
        subcommands: [Demo.self, Play.self, ProbeCommand.self, Inspect.self, Report.self, Lab.self, OutboxCommand.self],
        defaultSubcommand: Demo.self)

    /// The program's entry point: ArgumentParser's parse and run. When the arguments do not parse, an unknown option
    /// or subcommand is named first (``ArgumentCheck``): ArgumentParser validates a command before it reports what it
    /// could not parse. Arguments that parse cost no such check.
    static func main() async {
        StandardStreams.lineBuffered()
        let arguments = Array(CommandLine.arguments.dropFirst())
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            if let problem = ArgumentCheck.problem(in: arguments) {
                StandardStreams.writeError(PlainText.safe("Error: \(problem)") + "\n")
                Foundation.exit(ExitCode.validationFailure.rawValue)
            }
            exit(withError: error)
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}

/// Options every command shares.
struct CommonOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Log more (debug level) to standard error.")
    var verbose = false

    /// Log lines on standard error from `quietest` up (`--verbose`: from debug up).
    func bootstrapLogging(from quietest: Logger.Level = .warning) {
        let level: Logger.Level = verbose ? .debug : quietest
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler(label: label, stream: PlainTextErrorStream())
            handler.logLevel = level
            return handler
        }
    }
}

/// Standard error for log lines: each line escaped by ``PlainText/safe(_:)`` (a backend's error body, a reason phrase
/// or a URL in a message or its metadata drives no terminal), written at once.
struct PlainTextErrorStream: TextOutputStream, Sendable {
    mutating func write(_ string: String) {
        guard !string.isEmpty else { return }
        let body = string.hasSuffix("\n") ? String(string.dropLast()) : string
        StandardStreams.writeError(PlainText.safe(body) + "\n")
    }
}
