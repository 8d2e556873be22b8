// libFuzzer target for `playtrace report` (built by scripts/fuzz with the summaries' and the HTML reports' sources):
// any bytes must decode as a session summary or a probe summary, or be refused with an error, never crash or hang; a
// summary that decodes must make a whole report (numbers at the edges — 1e300, ±9.3e18, -0 — in any time, rate or
// count included; a probe's worst viewers with their own session summaries) in which no text of the summary becomes
// markup: the reports have no script, so none may appear.
import Foundation

// Invariant (what makes this file's pointer use sound): libFuzzer lends `size` bytes at `data` for the call; they are copied at once.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReport(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    if let summary = try? SessionSummary.decode(bytes) {
        check(HTMLReport(summary).document)
    }
    if let summary = try? ProbeSummary.decode(bytes) {
        check(ProbeReport(summary).document)
        _ = try? summary.encoded()
    }
    return 0
}

private func check(_ html: String) {
    precondition(html.hasSuffix("</html>\n") || html.hasSuffix("</html>"), "the report ends before </html>")
    precondition(html.range(of: "<script", options: .caseInsensitive) == nil, "summary text became markup: <script")
}
