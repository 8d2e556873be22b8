import Foundation
import PlaytraceCore

/// A probe's report as one self-contained HTML file (`playtrace probe --report`, or `playtrace report` of its
/// `--summary-json`): the verdict, the viewers, startup, playback and variants, requests by kind and outcome, beacons
/// and their lateness, then the worst viewers, each with its own session report (timeline, items, ads, requests)
/// folded under its name.
///
/// Drawn from the ``ProbeSummary`` alone; its size is bounded by the summary's (ten worst viewers, each a bounded
/// session summary).
public struct ProbeReport {
    public let summary: ProbeSummary

    public init(_ summary: ProbeSummary) {
        self.summary = summary
    }

    /// The whole document.
    public var document: String {
        var body = header() + verdict()
        body += HTMLReport.section("Viewers", id: "viewers", viewers())
        body += HTMLReport.section("Startup", id: "startup", distribution(summary.startup, of: "viewers"))
        body += HTMLReport.section("Playback", id: "playback", playback())
        body += HTMLReport.section("Requests", id: "requests", requests())
        if summary.beacons.totals.expected + summary.beacons.totals.fired > 0 {
            body += HTMLReport.section("Beacons", id: "beacons", beacons())
        }
        body += HTMLReport.section("The worst viewers", id: "worst", worst())
        body += "<footer><p>Made by playtrace from a probe summary of schema version \(summary.schemaVersion). "
            + "Percentiles from HdrHistograms with three significant digits; the worst viewers are the "
            + "\(summary.worst.count) kept, each with its bounded session summary.</p></footer>\n"
        return HTMLReport.page(title: title, body: body)
    }

    private var title: String {
        "Playtrace probe " + summary.url + " — " + (summary.succeeded ? "OK" : "FAILED") + " — " + summary.startedAt
    }

    private func header() -> String {
        let population = summary.population
        var facts = ["started \(summary.startedAt)", "ended \(summary.endedAt)",
                     "\(population.size) viewer(s), seed \(population.seed)"]
        if population.shardCount > 1 { facts.append("shard \(population.shardIndex)/\(population.shardCount)") }
        facts.append("ramp " + Format.seconds(population.rampSeconds) + ", then " + Format.seconds(population.durationSeconds)
            + " together; ran " + Format.seconds(population.elapsedSeconds))
        var html = "<header><h1>" + HTMLText.escape("Playtrace probe") + " <span class=\"badge "
            + (summary.succeeded ? "ok\">OK" : "bad\">FAILED") + "</span></h1>"
        html += "<p><code class=\"url\">" + HTMLText.escape(summary.url) + "</code></p>"
        html += HTMLText.element("p", facts.joined(separator: " · "), class: "facts")
        if !summary.complete {
            html += HTMLText.element("p", "Incomplete: the probe was interrupted before its end", class: "warning")
        }
        return html + "</header>\n"
    }

    private func verdict() -> String {
        let verdict = summary.verdict
        var html = HTMLText.element("p", verdict.line, class: "verdict")
        if !verdict.reasons.isEmpty {
            html += "<ul class=\"failures\">" + verdict.reasons.map {
                "<li>" + HTMLText.escape($0.text) + " <code>" + HTMLText.escape($0.kind) + "</code></li>"
            }.joined() + "</ul>"
        }
        if !verdict.accepted.isEmpty {
            html += "<p>Accepted (<code>--accept</code>): " + HTMLText.escape(verdict.accepted.map(\.text).joined(separator: "; "))
                + "</p>"
        }
        return html + "\n"
    }

    private func viewers() -> String {
        let viewers = summary.viewers
        let row = [viewers.planned, viewers.started, viewers.ended, viewers.failed, viewers.failedToStart,
                   viewers.neverStarted].map { HTMLReport.cell(String($0)) }.joined()
        var html = HTMLReport.table(["Planned", "Started", "Ended", "Failed", "Failed before playing", "Never showed a frame"],
                                    "<tr>" + row + "</tr>\n")
        if !viewers.shortfalls.isEmpty {
            let rows = viewers.shortfalls.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map {
                "<tr>" + HTMLReport.cell($0.key) + HTMLReport.cell(String($0.value)) + "</tr>\n"
            }.joined()
            html += HTMLText.element("p", "Viewers that fell short, by the verdict's kind:")
                + HTMLReport.table(["Shortfall", "Viewers"], rows)
        }
        return html
    }

    private func distribution(_ distribution: ProbeSummary.Distribution, of what: String) -> String {
        guard distribution.count > 0 else { return HTMLText.element("p", "None measured.") }
        func milliseconds(_ value: Double?) -> String { value.map { String(format: "%.0f ms", $0) } ?? "—" }
        let row = HTMLReport.cell(String(distribution.count)) + HTMLReport.cell(milliseconds(distribution.p50Milliseconds))
            + HTMLReport.cell(milliseconds(distribution.p90Milliseconds)) + HTMLReport.cell(milliseconds(distribution.p99Milliseconds))
            + HTMLReport.cell(milliseconds(distribution.maxMilliseconds))
        return HTMLReport.table([what.prefix(1).uppercased() + what.dropFirst(), "p50", "p90", "p99", "max"], "<tr>" + row + "</tr>\n")
    }

    private func playback() -> String {
        let playback = summary.playback
        let row = HTMLReport.cell(Format.seconds(playback.playedSeconds)) + HTMLReport.cell(String(playback.stallCount))
            + HTMLReport.cell(Format.seconds(playback.stallSeconds))
            + HTMLReport.cell(playback.stallsPerViewerHour.map { String(format: "%.2f", $0) } ?? "—")
            + HTMLReport.cell(playback.rebufferingRatio.map { String(format: "%.4f", $0) } ?? "—")
            + HTMLReport.cell(String(playback.variantSwitches))
        var html = HTMLReport.table(["Media played", "Stalls", "Stalled", "Stalls per viewer-hour", "Rebuffering ratio",
                                     "Variant switches"], "<tr>" + row + "</tr>\n")
        if !summary.variants.isEmpty {
            let rows = summary.variants.reversed().map { variant in
                "<tr>" + HTMLReport.cell(Format.bitrate(Double(variant.bandwidthBitsPerSecond)))
                    + HTMLReport.cell(Format.seconds(variant.playedSeconds)) + HTMLReport.cell(String(format: "%.1f%%", variant.share * 100))
                    + "</tr>\n"
            }.joined()
            html += HTMLText.element("p", "Time played at each variant, all viewers together:")
                + HTMLReport.table(["Variant", "Played", "Share"], rows)
        }
        return html
    }

    private func requests() -> String {
        var rows = ""
        for kind in ProbeRequestKind.allCases {
            guard let counts = summary.requests[kind.rawValue], counts.requests > 0 else { continue }
            let outcomes = counts.outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            rows += "<tr>" + HTMLReport.cell(kind.rawValue) + HTMLReport.cell(String(counts.requests))
                + HTMLReport.cell(outcomes, class: counts.failed > 0 ? "bad" : nil) + HTMLReport.cell(Format.bytes(counts.bytes))
                + "</tr>\n"
        }
        guard !rows.isEmpty else { return HTMLText.element("p", "No request finished.") }
        return HTMLReport.table(["Kind", "Requests", "Outcomes", "Received"], rows)
    }

    private func beacons() -> String {
        let totals = summary.beacons.totals
        let values = [totals.expected, totals.fired, totals.delivered, totals.failed, totals.waiting, totals.late,
                      totals.missed, totals.duplicated, totals.unexpected]
        let trouble: Set<Int> = [3, 4, 6, 7, 8]
        let row = values.enumerated().map { index, value in
            HTMLReport.cell(String(value), class: trouble.contains(index) && value > 0 ? "bad" : nil)
        }.joined()
        return HTMLReport.table(["Expected", "Fired", "Delivered", "Failed", "Waiting", "Late", "Missed", "Duplicated",
                                 "Not called for"], "<tr>" + row + "</tr>\n")
            + HTMLText.element("p", "Delivery lateness, from the playhead's crossing to the response:")
            + distribution(summary.beacons.lateness, of: "beacons")
    }

    private func worst() -> String {
        guard !summary.worst.isEmpty else { return HTMLText.element("p", "No viewer ended.") }
        return summary.worst.map { viewer in
            let name = "#\(viewer.index) \(viewer.id): \(viewer.reason)"
            guard let session = viewer.summary else {
                return HTMLText.element("p", name + " (no session summary: it failed before playing)", class: "warning")
            }
            return "<details class=\"viewer\"><summary>" + HTMLText.escape(name) + "</summary>\n"
                + HTMLReport(session).sections(idPrefix: "viewer-\(viewer.index)-") + "</details>\n"
        }.joined()
    }
}
