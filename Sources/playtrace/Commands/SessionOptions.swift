public import ArgumentParser
import Foundation
import PlaytraceCore
import PlaytracePlayer
import PlaytraceSession

/// What `play` and the demo share besides telemetry: a scripted viewer and the summary for machines.
struct SessionOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "A scripted viewer: actions separated by ';', each run when the playhead reaches its time (seconds), in order.",
        discussion: "at T pause D | at T seek S | at T mute | at T unmute | at T rate R | at T skip | at T stop; "
            + "'in ID at T …' acts T seconds into the interstitial whose date range has that ID (the primary's "
            + "playhead stands still while it plays): in pod-2 at 3 pause 1"))
    var script: String?

    @Option(name: .customLong("summary-json"),
            help: ArgumentHelp(
                "Write the session's record for machines to this file (JSON).",
                discussion: "The verdict, each item, the QoE metrics, the timeline, every request, ad break and beacon "
                    + "with its delivery; schemas/session-summary.schema.json describes it. playtrace report draws it."))
    var summaryJSON: String?

    @Option(help: ArgumentHelp(
        "Write the session's report to this HTML file: a timeline, the QoE metrics, the ad pods and beacons, the requests.",
        discussion: "One self-contained file (no network). The demo writes one by default (its path printed at the end)."))
    var report: String?

    @Flag(help: ArgumentHelp(
        "Plain lines even on a terminal, as a pipe or a file gets them (no live view).",
        discussion: "On a terminal, the session is otherwise shown live: a panel redrawn in place with the item, a progress bar, the variant, the ad under the playhead and its tracking events, the last warnings."))
    var plain = false

    @Option(help: ArgumentHelp(
        "A shortfall that does not fail the session (repeatable): the verdict still names it.",
        discussion: SessionVerdict.Shortfall.allCases.map(\.rawValue).joined(separator: " | ")
            + ". For instance --accept missed when a test plays faster than beacons fire on purpose."))
    var accept: [SessionVerdict.Shortfall] = []

    func validate() throws {
        try Self.check(script: script)
        if let summaryJSON { try WritablePath.check(summaryJSON, option: "--summary-json", appending: false) }
        if let report { try WritablePath.check(report, option: "--report", appending: false) }
    }

    /// Refuses a `--script` that does not parse, naming its mistake.
    static func check(script: String?) throws {
        guard let script else { return }
        do {
            _ = try ViewerScript(parsing: script)
        } catch {
            throw ValidationError(PlainText.safe("--script: \(error)"))
        }
    }

    /// The script, parsed (validated already).
    var viewerScript: ViewerScript? { script.flatMap { try? ViewerScript(parsing: $0) } }
}

extension SessionVerdict.Shortfall: ExpressibleByArgument {}
