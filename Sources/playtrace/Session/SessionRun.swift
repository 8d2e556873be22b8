import PlaytraceCore
import PlaytraceSession

/// What `play` and `demo` add to a viewer session: the terminal, the signals and the files. Ctrl-C, SIGTERM and
/// SIGHUP end the session as its normal end does; a second signal quits at once, leaving the last checkpoint in
/// `--summary-json`; at the end, `--report` then `--summary-json` are written whole (``AtomicFile``), a file that
/// cannot be written said and failing the verdict, and the verdict line comes last.
@MainActor
enum SessionRun {
    /// Runs the session; returns whether its verdict is a success.
    static func run(_ configuration: ViewerSession.Configuration, clock: any Clock<Duration>, transport: RecordingTransport,
                    output: ConsoleOutput, interruption: SessionInterruption, reportPath: String?,
                    summaryJSONPath: String?) async -> Bool {
        var configuration = configuration
        configuration.isInterrupted = { interruption.signal != nil }
        if let summaryJSONPath {
            configuration.checkpoint = { summary in
                guard let data = try? summary.encoded() else { return }
                interruption.writeOnQuit(data, to: summaryJSONPath)
            }
        }
        let session = ViewerSession(configuration: configuration, clock: clock, transport: transport, output: output)
        var result = await session.run()
        write(&result, reportPath: reportPath, summaryJSONPath: summaryJSONPath, output: output)
        // From here, quitting at once leaves the summary just written.
        interruption.lastWords {}
        output.message(result.verdict.line)
        return result.succeeded
    }

    /// Writes `--report`, then `--summary-json`. The summary comes last so that its verdict and `succeeded` are the
    /// run's final ones, a report that could not be written included; both come from one summary, so that
    /// `report SUMMARY.json` makes the very same report again.
    static func write(_ result: inout SessionResult, reportPath: String?, summaryJSONPath: String?, output: ConsoleOutput) {
        if let reportPath {
            do {
                try AtomicFile.write(HTMLReport(result.summary).document, to: reportPath)
                output.message("report: \(reportPath)")
            } catch {
                output.message(PlainFailure("--report \(reportPath)", error: error).description)
                result.add(.init(kind: .reportFile, text: "--report could not be written"))
            }
        }
        if let summaryJSONPath {
            do {
                try AtomicFile.write(result.summary.encoded(), to: summaryJSONPath)
            } catch {
                output.message(PlainFailure("--summary-json \(summaryJSONPath)", error: error).description)
                result.add(.init(kind: .summaryFile, text: "--summary-json could not be written"))
            }
        }
    }
}

extension ConsoleOutput: SessionOutput {
    var showsPanel: Bool { isTerminal }
}
