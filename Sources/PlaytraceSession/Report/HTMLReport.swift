import Foundation
import PlaytraceCore

/// A session's report as one self-contained HTML file: no network, no script, no external font. The verdict, a
/// timeline of the session (SVG), the QoE metrics with their definitions, the ad pods with every tracking event and
/// beacon, and the requests, failures first.
///
/// Drawn from the session summary (``SessionSummary``) alone, so that `play --report`, the demo and `playtrace
/// report SUMMARY.json` make the same file. Its size is bounded whatever the session's length: the summary's own
/// bounds (timeline samples, events, beacons, requests, VAST chains), 2,000 rows of the pod list and
/// 1,000 rows of the VAST chains.
public struct HTMLReport {
    public let summary: SessionSummary

    /// The most rows of the pod list drawn; the rest are counted.
    static let podRowLimit = 2_000
    /// The most rows of the VAST chains drawn; the rest are counted.
    static let vastRowLimit = 1_000

    public init(_ summary: SessionSummary) {
        self.summary = summary
    }

    /// The whole document.
    public var document: String {
        Self.page(title: title, body: header() + sections() + footer())
    }

    /// The verdict and the sections (timeline, items, QoE, ads, requests), their ids prefixed with `idPrefix`: a
    /// probe's report shows each of its worst viewers so.
    func sections(idPrefix: String = "") -> String {
        var body = verdict()
        body += section("Timeline", id: idPrefix + "timeline", TimelineChart(summary).svg())
        body += section("Items", id: idPrefix + "items", items())
        if !summary.qoe.isEmpty { body += section("QoE metrics", id: idPrefix + "qoe", qoe()) }
        if let ads = summary.ads { body += section("Ads", id: idPrefix + "ads", AdsSection(ads).html()) }
        body += section("Requests", id: idPrefix + "requests", requests())
        return body
    }

    /// A self-contained page: no network, no script, the report's style.
    static func page(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
        <title>\(HTMLText.escape(title))</title>
        <style>\(style)</style>
        </head>
        <body>
        \(body)
        </body>
        </html>

        """
    }

    /// How many failed beacons the verdict lists by name.
    static let failuresListed = 10

    private var title: String {
        "Playtrace \(summary.command)" + (streams.map { " \($0)" } ?? "") + " — " + (summary.succeeded ? "OK" : "FAILED")
            + " — " + summary.startedAt
    }

    /// What the session played, for the title: its first item, and how many more.
    private var streams: String? {
        guard let first = summary.items.first?.title else { return nil }
        return first + (summary.items.count > 1 ? " and \(summary.items.count - 1) more" : "")
    }

    func section(_ title: String, id: String, _ content: String) -> String {
        Self.section(title, id: id, content)
    }

    static func section(_ title: String, id: String, _ content: String) -> String {
        "<section id=\"\(id)\"><h2>\(HTMLText.escape(title))</h2>\n\(content)\n</section>\n"
    }

    private func header() -> String {
        let span = summary.timeline.samples.last?.atSeconds ?? 0
        var facts = ["started \(summary.startedAt)"]
        if let ended = summary.endedAt { facts.append("ended \(ended)") }
        facts.append("timeline \(Format.seconds(span))")
        if summary.clockSpeed != 1 {
            facts.append("the session's clock ran \(summary.clockSpeed)× real time: its times are the clock's")
        }
        var html = "<header><h1>" + HTMLText.escape("Playtrace \(summary.command)" + (streams.map { " " + $0 } ?? ""))
            + " <span class=\"badge "
            + (summary.succeeded ? "ok\">OK" : "bad\">FAILED") + "</span></h1>"
        html += HTMLText.element("p", facts.joined(separator: " · "), class: "facts")
        if !summary.complete {
            html += HTMLText.element("p", "Incomplete: " + (summary.incompleteReason ?? "the session did not reach its end"),
                                     class: "warning")
        }
        return html + "</header>\n"
    }

    private func verdict() -> String {
        var html = HTMLText.element("p", summary.verdict.line, class: "verdict")
        if !summary.verdict.reasons.isEmpty {
            html += "<ul class=\"reasons\">" + summary.verdict.reasons.map {
                "<li>" + HTMLText.escape($0.text) + " <code>" + HTMLText.escape($0.kind) + "</code></li>"
            }.joined() + "</ul>"
        }
        // On a phone the eye lands here first: what failed, by name, before any chart or table.
        let failed = (summary.ads?.beacons ?? []).filter { $0.state == "failed" }
        if !failed.isEmpty {
            html += "<ul class=\"failures\">" + failed.prefix(Self.failuresListed).map { beacon in
                "<li>" + HTMLText.escape("Beacon \(Format.beaconName(beacon.key)) failed"
                    + (beacon.reason.map { ": " + $0 } ?? "")) + " <code class=\"url\">" + HTMLText.escape(beacon.url)
                    + "</code></li>"
            }.joined() + (failed.count > Self.failuresListed
                ? "<li>" + HTMLText.escape("and \(failed.count - Self.failuresListed) more (under Ads)") + "</li>" : "")
                + "</ul>"
        }
        if !summary.verdict.accepted.isEmpty {
            html += "<p>Accepted (<code>--accept</code>): " + HTMLText.escape(summary.verdict.accepted.map(\.text).joined(separator: "; "))
                + "</p>"
        }
        return html + "\n"
    }

    private func items() -> String {
        guard !summary.items.isEmpty else { return "<p>No item reached its tracker's end.</p>" }
        var rows = ""
        for item in summary.items {
            let result = item.result + (item.failure.map { ": " + $0 } ?? "")
            rows += "<tr><td>" + HTMLText.escape(item.title) + "<br><code class=\"url\">" + HTMLText.escape(item.url)
                + "</code></td>" + cell(result, class: item.result == "failed" ? "bad" : nil)
                + cell(Format.streamKind(streamType: item.streamType, mediaType: item.mediaType))
                + cell(item.startupSeconds.map(Format.seconds) ?? "never shown")
                + cell(MediaTime(seconds: item.endPositionSeconds).timecode)
                + cell("\(item.stallCount) (\(Format.seconds(item.stallSeconds)))")
                + cell("\(item.variantSwitchCount)") + cell(Format.bytes(item.bytesReceived) + " in \(item.requestCount)")
                + "</tr>\n"
        }
        return table(["Item", "Result", "Stream", "First frame", "End", "Stalls", "Switches", "Received"], rows)
    }

    private func qoe() -> String {
        var rows = ""
        for metric in MetricDefinitions.all {
            rows += "<tr class=\"metric\"><th scope=\"row\"><details><summary>" + HTMLText.escape(metric.name)
                + "</summary><p>" + HTMLText.escape(metric.definition) + "</p></details></th>"
            for record in summary.qoe { rows += cell(metric.value(record) ?? "—") }
            rows += "</tr>\n"
        }
        return table(["Metric (click for its definition)"] + summary.qoe.map(\.content), rows)
            + "<p class=\"note\">CTA-2066 session metrics per playback, as the telemetry computed them.</p>"
    }

    private func requests() -> String {
        let log = summary.requests
        var html = HTMLText.element("p", "\(log.total) request(s), \(log.failed) failed, \(Format.bytes(log.bytesReceived)) "
            + "received" + (log.omitted > 0 ? "; \(log.omitted) not listed (the list keeps every failure up to "
            + "\(SessionSummary.Requests.failureLimit) and the first \(SessionSummary.Requests.successLimit) successes)" : ""))
        guard !log.listed.isEmpty else { return html }
        let ordered = log.listed.filter(\.isFailure) + log.listed.filter { !$0.isFailure }
        var rows = ""
        for request in ordered {
            let outcome = request.status.map { "HTTP \($0)" } ?? request.error ?? ""
            rows += "<tr" + (request.isFailure ? " class=\"failure\"" : "") + ">"
                + cell(outcome) + cell(Format.seconds(request.atSeconds))
                + cell(request.timeToFirstByteMilliseconds.map { String(format: "%.1f ms", $0) } ?? "—")
                + cell(String(format: "%.1f ms", request.durationMilliseconds)) + cell(Format.bytes(request.bytes))
                + "<td>" + HTMLText.escape(request.method) + " <code class=\"url\">" + HTMLText.escape(request.url)
                + "</code></td></tr>\n"
        }
        html += table(["Outcome", "At", "First byte", "Duration", "Size", "Request"], rows)
        return html
    }

    private func footer() -> String {
        "<footer><p>Made by playtrace from a session summary of schema version \(summary.schemaVersion). Bounded: "
            + "\(SessionSummary.Timeline.sampleLimit) timeline samples (the step doubles past them), "
            + "\(SessionSummary.Timeline.eventLimit) events, \(SessionSummary.Ads.beaconLimit) beacon URLs, "
            + "\(Self.podRowLimit) pod-list rows, \(Self.vastRowLimit) VAST-chain rows, "
            + "\(SessionSummary.Requests.failureLimit + SessionSummary.Requests.successLimit) "
            + "requests; past them the report says how many it left out.</p></footer>\n"
    }

    func cell(_ text: String, class name: String? = nil) -> String { Self.cell(text, class: name) }

    static func cell(_ text: String, class name: String? = nil) -> String { HTMLText.element("td", text, class: name) }

    func table(_ headings: [String], _ rows: String) -> String { Self.table(headings, rows) }

    static func table(_ headings: [String], _ rows: String) -> String {
        "<div class=\"scroll\"><table><thead><tr>" + headings.map { HTMLText.element("th", $0) }.joined()
            + "</tr></thead><tbody>\n" + rows + "</tbody></table></div>"
    }

    private static let style = """
        :root{color-scheme:light dark;--fg:#1d1d1f;--bg:#fff;--muted:#6e6e73;--line:#d2d2d7;--ok:#1a7f37;--bad:#cf222e;\
        --late:#bf8700;--wait:#8c959f;--band:#f0b429;--inter:#8250df;--play:#0969da}
        @media (prefers-color-scheme:dark){:root{--fg:#f5f5f7;--bg:#161618;--muted:#a1a1a6;--line:#3a3a3c}}
        body{font:15px/1.45 -apple-system,system-ui,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg);\
        margin:0 auto;padding:16px;max-width:1100px}
        h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.15em;margin:1.6em 0 .5em;border-bottom:1px solid var(--line)}
        code{font:12px/1.3 ui-monospace,Menlo,Consolas,monospace}.url{word-break:break-all}
        .facts,.note{color:var(--muted)}.warning{color:var(--bad);font-weight:600}
        .badge{font-size:.7em;padding:2px 8px;border-radius:10px;color:#fff;vertical-align:middle}
        .badge.ok{background:var(--ok)}.badge.bad{background:var(--bad)}
        .verdict{font-weight:600}.scroll{overflow-x:auto}
        table{border-collapse:collapse;width:100%;font-size:13px}th,td{text-align:left;padding:4px 8px;\
        border-bottom:1px solid var(--line);vertical-align:top}
        tr.failure td,td.bad{color:var(--bad)}details summary{cursor:pointer}
        .state{font-weight:600}.state-done,.state-delivered{color:var(--ok)}.state-failed{color:var(--bad)}\
        .state-late{color:var(--late)}.state-idle,.state-waiting,.state-connecting{color:var(--wait)}
        .depth-1 td:first-child{padding-left:24px}.depth-2 td:first-child{padding-left:44px}
        tr.pod td{font-weight:600;border-top:2px solid var(--line)}
        svg{width:100%;min-width:640px;height:auto;display:block}svg text{font:11px sans-serif;fill:var(--muted)}
        td:first-child{min-width:11em}td{white-space:nowrap}code.url,td.text{white-space:normal}
        ul.failures{margin:.3em 0 0;padding-left:1.2em;color:var(--bad)}
        .legend span{display:inline-block;margin-right:14px;font-size:12px}
        .swatch{display:inline-block;width:10px;height:10px;border-radius:5px;margin-right:4px;vertical-align:middle}
        footer{margin-top:2em;color:var(--muted);font-size:12px}
        details.viewer{border:1px solid var(--line);border-radius:6px;padding:6px 10px;margin:8px 0}
        details.viewer>summary{font-weight:600}
        """
}
