public import Foundation
import PlaytraceCore

/// Runs the built `playtrace` executable as a user would: what the command line tests of every build share.
public enum CommandRunner {
    /// What a run of the command gave.
    public struct Run: Sendable {
        public var status: Int32
        public var output: String
        public var error: String

        public init(status: Int32, output: String, error: String) {
            self.status = status
            self.output = output
            self.error = error
        }
    }

    /// The `playtrace` executable beside the test bundle (the build's products directory).
    public static var executable: URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("playtrace")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: ".build/debug/playtrace")
    }

    /// Runs `executable` off the Swift concurrency pool (a blocked pool thread could starve the in-process lab the
    /// command talks to), reading standard output and standard error at the same time (reading one after the other
    /// can deadlock on a full pipe).
    /// - Parameters:
    ///   - executable: the program.
    ///   - arguments: its arguments.
    ///   - environment: variables added to this process's environment for the command.
    ///   - input: a file the command reads as its standard input.
    ///   - timeout: how long the command may run: then it is interrupted as Ctrl-C does (it prints its summary and
    ///     exits 130), and killed 10 s later, so that a command that hangs fails its test with what it printed
    ///     instead of holding the whole run.
    public static func run(executable: URL = executable, _ arguments: [String], environment: [String: String] = [:],
                           input: URL? = nil, timeout: Duration = .seconds(300)) async throws -> Run {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                do {
                    continuation.resume(returning: try runBlocking(executable: executable, arguments, environment: environment,
                                                                   input: input, timeout: timeout))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    private static func runBlocking(executable: URL, _ arguments: [String], environment: [String: String],
                                    input: URL?, timeout: Duration) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let input { process.standardInput = try FileHandle(forReadingFrom: input) }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let limit = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) * 1e-18
        let fired = Locked(false)
        let watchdog = DispatchWorkItem {
            guard process.isRunning else { return }
            fired.withLock { $0 = true }
            process.interrupt()
            DispatchQueue.global().asyncAfter(deadline: .now() + 10) {
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: watchdog)
        defer { watchdog.cancel() }
        let errorReader = DispatchGroup()
        let errorData = Locked(Data())  // written by the reader below, read after `wait()`
        DispatchQueue.global().async(group: errorReader) {
            let data = error.fileHandleForReading.readDataToEndOfFile()
            errorData.withLock { $0 = data }
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        errorReader.wait()
        process.waitUntilExit()
        let note = fired.withLock { $0 } ? "(CommandRunner: still running after \(timeout): interrupted)\n" : ""
        return Run(status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
                   error: note + String(decoding: errorData.withLock { $0 }, as: UTF8.self))
    }
}
