import Foundation
import PlaytraceCore
import PlaytraceLab
import PlaytraceTestSupport
import Testing

/// The session report as a person sees it: written by the demo, `play --report` and `report`, rendered by headless
/// Chromium, whatever the session was (ads or none, failed, interrupted, at the summary's bounds).
@Suite("The session report", .serialized)
struct ReportTests {
    private static func occurrences(of needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    /// The definitions in the Metrics article's tables (their last column), by metric name.
    private static func articleDefinitions() throws -> [String: String] {
        let article = JSONSchemaCheck.repositoryRoot
            .appendingPathComponent("Sources/PlaytraceTelemetry/PlaytraceTelemetry.docc/Metrics.md")
        var definitions: [String: String] = [:]
        for line in try String(contentsOf: article, encoding: .utf8).split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, let definition = cells.last else { continue }
            definitions[cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = definition
        }
        return definitions
    }

    @Test("The demo's report in Chromium: one mark per beacon, one row per metric in the article's words, no console message")
    func demoReport() async throws {
        let summary = CLITests.temporaryPath("report-demo.json"), report = CLITests.temporaryPath("report-demo") + ".html"
        let again = CLITests.temporaryPath("report-again") + ".html"
        defer { for path in [summary, report, again] { try? FileManager.default.removeItem(atPath: path) } }
        let run = try await CLITests.run(["--speed", "40", "--summary-json", summary, "--report", report])
        #expect(run.status == 0, "\(run.output)\n\(run.error)")
        #expect(run.output.contains("report: \(report)"), "the demo prints its report's path")
        let json = try await VerdictTests.json(summary)
        let ads = try #require(json["ads"] as? [String: Any])
        let beacons = try #require(ads["beacons"] as? [[String: Any]])
        let counts = try #require(ads["counts"] as? [String: Any])
        #expect((counts["fired"] as? Int ?? 0) + (counts["vastErrorReports"] as? Int ?? 0) == 84,
                "every beacon of the demo, the two VAST error reports included")
        #expect(beacons.count >= 84, "one entry per URL of each")
        let chains = try #require(ads["vastChains"] as? [[String: Any]], "the VAST responses of the interstitials")
        let wrapped = try #require(chains.first { $0["interstitialID"] as? String == "mid-1" })
        #expect((wrapped["requests"] as? [[String: Any]])?.map { $0["depth"] as? Int } == [0, 1, 2],
                "mid-1's asset list is a chain of two wrappers")
        #expect((wrapped["ads"] as? [[String: Any]])?.allSatisfy { ($0["chainURLs"] as? [String])?.count == 3 } == true)

        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(Self.occurrences(of: "<circle class=\"beacon beacon-", in: html) == beacons.count)
        #expect(Self.occurrences(of: "<tr class=\"metric\">", in: html) == 11)
        var defined = 0
        for (name, definition) in try Self.articleDefinitions() where html.contains("<summary>\(name)</summary>") {
            let escaped = definition.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "'", with: "&#39;")
            #expect(html.contains("<summary>\(name)</summary><p>\(escaped)</p>"), "\(name): the article's words")
            defined += 1
        }
        #expect(defined == 11, "every metric of the table is one of the article's")
        #expect(!html.contains("<script") && !html.contains("src=\"http") && !html.contains("href="),
                "self-contained: no script, nothing loaded, no link")
        #expect(html.contains("vast:pre") && html.contains("firstQuartile") && html.contains("class=\"state state-done\""))
        #expect(html.contains("<h3>VAST chains</h3>") && html.contains("through 2 wrapper(s)"))

        let page = try await HeadlessBrowser.render(report)
        #expect(page.consoleMessages.isEmpty, "\(page.consoleMessages)")
        #expect(Self.occurrences(of: "class=\"beacon beacon-", in: page.dom) == beacons.count, "the marks, as rendered")
        #expect(page.dom.contains("<svg"))
        try await HeadlessBrowser.screenshot(report, to: HeadlessBrowser.artifactsDirectory.appendingPathComponent("report-demo.png").path)

        // `report` makes the same file from the summary.
        let remade = try await CLITests.run(["report", summary, "-o", again])
        #expect(remade.status == 0, "\(remade.output)\n\(remade.error)")
        #expect(try String(contentsOfFile: again, encoding: .utf8) == html)
    }

    @Test("play --report without ads, after a failure and after a signal: a report every time, saying what happened")
    func playReports() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let plain = CLITests.temporaryPath("report-plain") + ".html"
        let failed = CLITests.temporaryPath("report-failed") + ".html"
        let interrupted = CLITests.temporaryPath("report-interrupted") + ".html"
        defer { for path in [plain, failed, interrupted] { try? FileManager.default.removeItem(atPath: path) } }

        let vod = try await CLITests.run(["play", "http://127.0.0.1:\(port)/vod/master.m3u8", "--script", "at 3 stop",
                                          "--report", plain])
        #expect(vod.status == 0, "\(vod.output)\n\(vod.error)")
        let plainHTML = try String(contentsOfFile: plain, encoding: .utf8)
        #expect(plainHTML.contains("badge ok") && !plainHTML.contains("id=\"ads\"") && plainHTML.contains("<polyline class=\"playhead\""))

        let missing = try await CLITests.run(["play", "http://127.0.0.1:\(port)/no/such/master.m3u8", "--report", failed])
        #expect(missing.status == 1)
        let failedHTML = try String(contentsOfFile: failed, encoding: .utf8)
        #expect(failedHTML.contains("badge bad") && failedHTML.contains("HTTP 404"), "the failure and its request")

        let live = try await CLITests.run(viaTimeout: 4, ["play", "http://127.0.0.1:\(port)/live/master.m3u8", "--report", interrupted])
        await lab.stop()
        #expect(live.status == 124, "\(live.output)\n\(live.error)")
        let interruptedHTML = try String(contentsOfFile: interrupted, encoding: .utf8)
        #expect(interruptedHTML.contains("(interrupted)"))
        for path in [plain, failed, interrupted] {
            let page = try await HeadlessBrowser.render(path)
            #expect(page.consoleMessages.isEmpty, "\(path): \(page.consoleMessages)")
        }
    }

    /// Every stream the lab serves, with the ad tracking it is made for.
    static let labStreams: [(path: String, ads: String?)] = [
        ("/vod/master.m3u8", nil), ("/live/master.m3u8", nil), ("/dvr/master.m3u8", nil), ("/fmp4/master.m3u8", nil),
        ("/interstitials/master.m3u8", "signaling"), ("/vast-interstitials/master.m3u8", "vast"),
        ("/steering/master.m3u8", nil), ("/long-live/2000/index.m3u8", nil),
        ("/ssai/harmonic/vod/master.m3u8", "harmonic"), ("/ssai/harmonic/live/master.m3u8", "harmonic"),
        ("/ssai/mediatailor/v1/session/lab/origin/vod/master.m3u8", "mediatailor"),
        ("/ssai/mediatailor/v1/session/lab/origin/live/master.m3u8", "mediatailor"),
    ]

    @Test("play --report and report on every lab stream: a valid summary, the same report twice, rendered without a console message",
          arguments: Self.labStreams.map(\.path))
    func everyLabStream(path: String) async throws {
        let ads = Self.labStreams.first { $0.path == path }?.ads
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let name = path.split(separator: "/").joined(separator: "-")
        let summary = CLITests.temporaryPath("stream\(name).json"), report = CLITests.temporaryPath("stream\(name)") + ".html"
        let again = CLITests.temporaryPath("stream-again\(name)") + ".html"
        defer { for file in [summary, report, again] { try? FileManager.default.removeItem(atPath: file) } }
        let run = try await CLITests.run(["play", "http://127.0.0.1:\(port)\(path)", "--duration", "6", "--summary-json", summary,
                                          "--report", report] + (ads.map { ["--ads", $0] } ?? []))
        await lab.stop()
        #expect(run.status == 0, "\(path): \(run.output.suffix(1500))\n\(run.error.suffix(1500))")
        let json = try await VerdictTests.json(summary)
        #expect((json["ads"] != nil) == (ads != nil), "\(path): ads tracked with --ads only")
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(html.contains("badge ok") && html.contains("<polyline class=\"playhead\""), "\(path)")
        #expect(html.contains("id=\"ads\"") == (ads != nil), "\(path)")
        let remade = try await CLITests.run(["report", summary, "-o", again])
        #expect(remade.status == 0 && (try? String(contentsOfFile: again, encoding: .utf8)) == html, "\(path): \(remade.error)")
        let page = try await HeadlessBrowser.render(report)
        #expect(page.consoleMessages.isEmpty, "\(path): \(page.consoleMessages)")
    }

    @Test("probe --report: the aggregate and each worst viewer's own session report; report of its summary makes the same file")
    func probeReport() async throws {
        let lab = LabServer(clock: ContinuousClock(), configuration: LabConfiguration(
            variants: LabConfiguration.loadLadder, liveAdBreakInterval: 4, liveAdBreakLength: 2))
        let port = try await lab.start()
        // Two media segments answer 404: the viewer skips them, and the requests say so.
        lab.faults.add(LabFault(pathContains: ".ts", kind: .status(404), remaining: 2))
        let summary = CLITests.temporaryPath("probe-report") + ".json", report = CLITests.temporaryPath("probe-report") + ".html"
        let again = CLITests.temporaryPath("probe-report-again") + ".html"
        defer { for file in [summary, report, again] { try? FileManager.default.removeItem(atPath: file) } }
        let run = try await CLITests.run(["probe", "http://127.0.0.1:\(port)/ssai/harmonic/live/master.m3u8", "--ads", "harmonic",
                                          "--viewers", "3", "--ramp", "1", "--duration", "10", "--summary-json", summary,
                                          "--report", report, "--accept", "stalled"])
        await lab.stop()
        #expect(run.output.contains("report: \(report)"), "\(run.output)\n\(run.error)")
        let html = try String(contentsOfFile: report, encoding: .utf8)
        for section in ["viewers", "startup", "playback", "requests", "beacons", "worst"] {
            #expect(html.contains("<section id=\"\(section)\">"), "the \(section) section")
        }
        #expect(html.contains("<td>404 2, 2xx ") || html.contains(", 404 2"), "the failed segments, by outcome")
        #expect(Self.occurrences(of: "<details class=\"viewer\">", in: html) == 3, "each viewer, folded")
        for index in 0..<3 {
            #expect(html.contains("id=\"viewer-\(index)-timeline\"") && html.contains("id=\"viewer-\(index)-ads\""),
                    "viewer \(index)'s own session report")
        }
        #expect(Self.occurrences(of: "<polyline class=\"playhead\"", in: html) == 3)
        let remade = try await CLITests.run(["report", summary, "-o", again])
        #expect(remade.status == 0 && (try? String(contentsOfFile: again, encoding: .utf8)) == html, "\(remade.error)")
        let page = try await HeadlessBrowser.render(report)
        #expect(page.consoleMessages.isEmpty, "\(page.consoleMessages)")
        #expect(page.dom.contains("The worst viewers"))
        try await HeadlessBrowser.screenshot(report, to: HeadlessBrowser.artifactsDirectory.appendingPathComponent("report-probe.png").path)
    }

    @Test("report refuses what is not a summary in one line naming the file, and writes nothing")
    func refusals() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("report-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.html").path
        let cases: [(String, String, String)] = [
            ("text.json", "not json at all", "not JSON"),
            ("version.json", #"{"schemaVersion": 99}"#, "a summary of schema version 99; this playtrace reads version 1"),
            ("none.json", #"{"hello": 1}"#, "not a playtrace session summary (no schemaVersion)"),
            ("partial.json", #"{"schemaVersion": 1, "command": "play"}"#, "is missing"),
        ]
        for (name, content, message) in cases {
            let path = directory.appendingPathComponent(name).path
            try Data(content.utf8).write(to: URL(fileURLWithPath: path))
            let run = try await CLITests.run(["report", path, "-o", output])
            #expect(run.status != 0)
            CLIRobustnessTests.expectCleanFailure(run, naming: path)
            #expect(run.error.contains(message), "\(name): \(run.error)")
            #expect(!FileManager.default.fileExists(atPath: output))
        }
        let absent = try await CLITests.run(["report", directory.appendingPathComponent("absent.json").path, "-o", output])
        CLIRobustnessTests.expectCleanFailure(absent, naming: "absent.json")
    }

    @Test("A summary at every bound makes a report of bounded size, quickly")
    func boundedReport() async throws {
        let summary = CLITests.temporaryPath("report-large.json"), report = CLITests.temporaryPath("report-large") + ".html"
        defer { for path in [summary, report] { try? FileManager.default.removeItem(atPath: path) } }
        try JSONSerialization.data(withJSONObject: Self.largestSummary()).write(to: URL(fileURLWithPath: summary))
        #expect(try await JSONSchemaCheck.errors(in: summary, schema: "session-summary").isEmpty)
        let began = ContinuousClock.now
        let run = try await CLITests.run(["report", summary, "-o", report])
        let took = ContinuousClock.now - began
        #expect(run.status == 0, "\(run.output)\n\(run.error)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: report)[.size] as? NSNumber).intValue
        #expect(size < 4_000_000, "\(size) bytes (2.3 MB when this was written)")
        #expect(took < .seconds(60), "\(took)")
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(Self.occurrences(of: "<circle class=\"beacon beacon-", in: html) == 5_000)
        #expect(Self.occurrences(of: "more row(s): see the summary JSON", in: html) == 2, "the pod list and the VAST chains past their bounds are counted")
    }

    /// The summary is outside input too (issue 44): `report` crashed on `1e300` in a time field (the chart's
    /// coordinates). Every time, ratio and rate of the richest summary set to an edge value, one value per run.
    @Test("Times at the edges of what JSON holds (±1e300, ±9.3e18, -0) make a report or a clean error, never a crash",
          arguments: [1e300, -1e300, 9.3e18, -9.3e18, -0.0])
    func edgeNumbersInTheSummary(value: Double) async throws {
        let summary = CLITests.temporaryPath("report-edge.json"), report = CLITests.temporaryPath("report-edge") + ".html"
        defer { for path in [summary, report] { try? FileManager.default.removeItem(atPath: path) } }
        func mutated(_ object: Any, key: String = "") -> Any {
            if let dictionary = object as? [String: Any] {
                return dictionary.reduce(into: [String: Any]()) { $0[$1.key] = mutated($1.value, key: $1.key) }
            }
            if let array = object as? [Any] { return array.map { mutated($0, key: key) } }
            let isTime = ["Seconds", "Milliseconds", "Ratio"].contains { key.hasSuffix($0) } || key == "rate" || key == "clockSpeed"
            return isTime && object is NSNumber ? value : object
        }
        try JSONSerialization.data(withJSONObject: mutated(Self.largestSummary())).write(to: URL(fileURLWithPath: summary))
        let run = try await CLITests.run(["report", summary, "-o", report])
        if run.status == 0 {
            #expect(try String(contentsOfFile: report, encoding: .utf8).contains("</html>"))
        } else {
            CLIRobustnessTests.expectCleanFailure(run, naming: summary)
        }
        #expect(!run.error.contains("Fatal error") && !run.error.contains("Backtrace") && run.status < 128, "\(run.error)")
    }

    /// A summary of a day-long live session at every bound of the summary: 2,000 samples, 2,000 events, 500 breaks,
    /// 5,000 beacons, 500 requests, 400 pods of 8 ads, and 500 VAST chains.
    private static func largestSummary() -> [String: Any] {
        let day = 86_400.0
        let samples: [[String: Any]] = (0..<2_000).map { index in
            let at: Double = Double(index) * day / 2_000
            let sample: [String: Any] = [
                "atSeconds": at, "item": 0, "state": "playing", "buffering": false, "rate": 1.0, "playheadSeconds": at,
                "bufferAheadSeconds": 12.0, "seekableEndSeconds": at + 20, "variant": index % 3,
                "bitrateBitsPerSecond": 400_000 * (1 + index % 3),
            ]
            return sample
        }
        let events: [[String: Any]] = (0..<2_000).map { index in
            let at: Double = Double(index) * 40
            let kind: String = index % 2 == 0 ? "stall" : "stallEnded"
            let event: [String: Any] = ["atSeconds": at, "item": 0, "kind": kind, "playheadSeconds": at,
                                        "text": "stall <b>\(index)</b>"]
            return event
        }
        let breaks: [[String: Any]] = (0..<500).map { index in
            ["item": 0, "id": "break-\(index)", "sources": ["daterange-scte35"], "startSeconds": Double(index) * 170,
             "durationSeconds": 30, "interstitial": false]
        }
        func event(_ pod: Int, _ ad: Int, _ type: String, _ at: Double) -> [String: Any] {
            ["key": "p\(pod)/a\(ad)/\(type)@\(Int(at * 1000))", "type": type, "trigger": "automatic", "timeSeconds": at,
             "state": "done", "urls": ["http://beacons.example/\(pod)/\(ad)/\(type)?x=<script>"]]
        }
        let pods: [[String: Any]] = (0..<400).map { pod in
            let start = Double(pod) * 200
            return ["id": "p\(pod)", "startSeconds": start, "durationSeconds": 240, "reached": true, "events": [],
                    "ads": (0..<8).map { ad in
                        let adStart = start + Double(ad) * 30
                        return ["id": "a\(ad)", "startSeconds": adStart, "durationSeconds": 30,
                                "events": ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"]
                                    .enumerated().map { event(pod, ad, $0.element, adStart + Double($0.offset) * 6) }] as [String: Any]
                    }]
        }
        let beacons: [[String: Any]] = (0..<5_000).map { index in
            let at: Double = Double(index) * 17
            let beacon: [String: Any] = [
                "event": "start", "key": "p\(index / 8)/a\(index % 8)/start@\(index)", "url": "http://beacons.example/\(index)",
                "cause": "crossed", "crossingSeconds": at, "sentSeconds": at, "deliveredSeconds": at + 0.02,
                "firingLatenessMilliseconds": 0.5, "deliveryLatenessMilliseconds": 20.0, "attempts": 1, "state": "delivered",
                "late": false,
            ]
            return beacon
        }
        let requests: [[String: Any]] = (0..<500).map { index in
            let status: Int = index % 2 == 0 ? 200 : 503
            let request: [String: Any] = ["atSeconds": Double(index) * 170, "method": "GET",
                                          "url": "http://origin.example/seg\(index).ts", "status": status,
                                          "durationMilliseconds": 12.0, "bytes": 100_000]
            return request
        }
        // 500 VAST responses (the bound) of five wrappers and two ads each, one error each.
        let vastChains: [[String: Any]] = (0..<500).map { index in
            let urls = (0...5).map { "http://ads.example/\(index)/wrapper-\($0).xml" }
            return ["podID": "vast:\(index)", "interstitialID": "\(index)",
                    "requests": urls.enumerated().map { ["url": $0.element, "depth": $0.offset] as [String: Any] },
                    "ads": (1...2).map { ["id": "ad-\($0)", "chainURLs": urls, "leftOut": false] as [String: Any] },
                    "errors": [["code": 405, "message": "the media file could not be played", "urls": urls]]]
        }
        let counts = ["expected", "fired", "playerInitiated", "delivered", "failed", "waiting", "late", "missed", "unexpected",
                      "duplicated", "restored", "vastErrorReports", "refusedURLs", "urlsOverLimit"].reduce(into: [String: Any]()) {
            $0[$1] = 0
        }.merging(["worstDeliveryLatenessMilliseconds": 20.0, "worstFiringLatenessMilliseconds": 0.5]) { $1 }
        return [
            "schemaVersion": 1, "command": "play", "startedAt": "2026-11-25T00:00:00.000Z", "endedAt": "2026-11-26T00:00:00.000Z",
            "clockSpeed": 1, "complete": true, "succeeded": true,
            "verdict": ["succeeded": true, "playback": "played", "interrupted": false, "line": "verdict: OK", "reasons": [],
                        "accepted": []] as [String: Any],
            "items": [], "qoe": [["content": "day", "stallCount": 1_000]],
            "ads": ["format": "harmonic", "metadataRequests": 21_600, "metadataFailures": 0, "counts": counts, "pods": pods,
                    "beacons": beacons, "beaconsOmitted": 70_000, "vastChains": vastChains, "vastChainsOmitted": 2_000] as [String: Any],
            "timeline": ["sampleIntervalSeconds": 43.2, "samples": samples, "events": events, "eventsOmitted": 9_000,
                         "breaks": breaks] as [String: Any],
            "requests": ["total": 90_000, "failed": 250, "bytesReceived": 9_000_000_000, "listed": requests,
                         "omitted": 89_500] as [String: Any],
        ]
    }
}
