import ArgumentParser
import Foundation
import PlaytraceCore
import PlaytraceSession

struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Make a session's or a probe's HTML report from its --summary-json file.",
        discussion: """
            The report is the one play --report and the demo write: a timeline of the session (playhead, buffer, bit \
            rate, stalls, seeks, pauses, ad breaks and interstitials, each beacon at its crossing coloured by its \
            state), the QoE metrics with their definitions, the ad pods with every tracking event, and the requests, \
            failures first. One self-contained file: no network, no script. A probe's summary gives the probe's report \
            (probe --report): the aggregate, and its worst viewers each with its session's report.
            """)

    @Argument(help: "The session or probe summary (play, demo or probe --summary-json).")
    var summary: String

    @Option(name: [.short, .customLong("output")],
            help: "The HTML file to write (by default, the summary's path with .html for its extension).")
    var output: String?

    /// The largest summary read: the summary's own bounds keep one well below it.
    static let sizeLimit = 64 << 20

    /// The file written: `--output`, else the summary beside itself as HTML (`s.json` → `s.html`).
    var outputPath: String {
        if let output { return output }
        let url = URL(fileURLWithPath: summary)
        let beside = url.deletingPathExtension().appendingPathExtension("html").path
        // A summary named .html is never written over.
        return beside == url.path ? url.path + ".html" : beside
    }

    func validate() throws {
        try WritablePath.check(outputPath, option: "--output", appending: false)
    }

    func run() throws {
        let bytes: [UInt8]
        do {
            bytes = try LocalFile.read(summary, limit: Self.sizeLimit)
        } catch {
            throw PlainFailure(summary, error: error)
        }
        let document: String
        do {
            let data = Data(bytes)
            // A probe's summary draws the probe's report; any other, a session's.
            document = try SummaryHead.read(data).command == "probe"
                ? ProbeReport(try ProbeSummary.decode(data)).document
                : HTMLReport(try SessionSummary.decode(data)).document
        } catch let error as SummaryFileError {
            throw PlainFailure(summary, error.description)
        } catch let error as DecodingError {
            throw PlainFailure(summary, "not a session or probe summary: " + Self.describe(error))
        } catch {
            throw PlainFailure(summary, "not JSON: " + PlainText.describe(error))
        }
        let output = outputPath
        do {
            try AtomicFile.write(document, to: output)
        } catch {
            throw PlainFailure("--output \(output)", error: error)
        }
        print("report: \(PlainText.safe(output))")
    }

    /// A decoding error as the field that is wrong.
    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
            return path.isEmpty ? "the top level" : String(path.drop { $0 == "." })
        }
        switch error {
        case .keyNotFound(let key, let context):
            return (context.codingPath.isEmpty ? "" : path(context) + ".") + "\(key.stringValue) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "\(path(context)) is not what it should be"
        case .dataCorrupted(let context): return "\(path(context)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}
