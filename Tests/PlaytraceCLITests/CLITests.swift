import Foundation
import PlaytraceCore
import PlaytraceLab
import PlaytraceTestSupport
import Testing

/// Runs the built `playtrace` executable as a user would.
@Suite("The playtrace command line", .serialized)
struct CLITests {
    typealias Run = CommandRunner.Run

    /// A fresh path in the temporary directory, named after `name`.
    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)").path
    }

    static var executable: URL { CommandRunner.executable }

    /// Runs the executable (``CommandRunner``).
    /// - Parameter environment: variables added to this process's environment for the command.
    /// - Parameter input: a file the command reads as its standard input.
    static func run(_ arguments: [String], environment: [String: String] = [:], input: URL? = nil) async throws -> Run {
        try await CommandRunner.run(arguments, environment: environment, input: input)
    }

    /// Runs `inspect --json` with `arguments`, checks what it prints against `schemas/inspect.schema.json`, and
    /// returns the run and the document.
    static func inspectJSON(_ arguments: [String]) async throws -> (run: Run, document: [String: Any]) {
        let run = try await Self.run(["inspect", "--json"] + arguments)
        let errors = try await JSONSchemaCheck.errors(inText: run.output, schema: "inspect")
        #expect(errors.isEmpty, "inspect --json \(arguments) conforms to schemas/inspect.schema.json: \(errors)")
        let parsed = try? JSONSerialization.jsonObject(with: Data(run.output.utf8))
        let document = try #require(parsed as? [String: Any],
                                    "inspect --json \(arguments) printed JSON: \(run.output.prefix(500)) \(run.error)")
        return (run, document)
    }

    /// Runs the executable under `timeout -s TERM seconds`, which signals it and then its process group when the
    /// time is up (as a CI step's time limit does).
    static func run(viaTimeout seconds: Int, _ arguments: [String]) async throws -> Run {
        try await CommandRunner.run(executable: URL(fileURLWithPath: "/usr/bin/timeout"),
                                    ["-s", "TERM", "\(seconds)", executable.path] + arguments)
    }

    @Test func theDemoPlaysTheLabStreamToTheEndAndExitsZero() async throws {
        let jsonl = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: jsonl) }
        let collector = LabServer(clock: ContinuousClock())   // its sink stands for an OpenTelemetry collector
        let collectorPort = try await collector.start()
        let run = try await Self.run(["--speed", "40", "--jsonl", jsonl.path,
                                      "--otlp", "http://127.0.0.1:\(collectorPort)/sink/otlp", "--otlp-header", "api-key=k"])
        await collector.stop()
        #expect(run.status == 0, "stderr: \(run.error)")
        for signal in ["metrics", "traces"] {
            let exports = collector.sink.accepted(under: "/sink/otlp/v1/" + signal)
            #expect(!exports.isEmpty, "OTLP \(signal) reach the collector")
            #expect(exports.allSatisfy { $0.headers["api-key"] == "k" && $0.headers["content-type"] == "application/x-protobuf" })
        }
        #expect(run.output.contains("delivery "), "the summary reports the outbox's deliveries")
        #expect(run.output.contains("played to the end"))
        #expect(run.output.contains("ad break break-1"))
        #expect(run.output.contains("Summary"))
        #expect(run.output.contains("first frame       "))
        #expect(run.output.contains("from the media request to the first frame"), "the two startup figures are named")
        // The default stream: a stitched break (Harmonic) and interstitials from the lab's VAST server, all beaconed.
        #expect(run.output.contains("interstitial pre played after ") && run.output.contains("interstitial post played after "),
                "each says how long it played: \(run.output)")
        #expect(!run.output.contains("MISSED") && !run.output.contains("not called for"))
        #expect(run.output.contains("84 delivered, 0 failed"), "every beacon of both, and the two VAST error reports")
        for line in ["[tracker Lab interstitials] enable", "[tracker Lab interstitials] disable at 00:01:20.000", "[tracker Lab fMP4] enable",
                     "[tracker Lab fMP4] metric event at 00:00:00.000: item transition", "[tracker Lab fMP4] deinit"] {
            #expect(run.output.contains(line), "missing: \(line)")
        }
        #expect(run.output.contains("Metrics (CTA-2066, per session)"))
        #expect(run.output.contains("ContentPlaybackTime"))
        let lines = try String(contentsOf: jsonl, encoding: .utf8).split(separator: "\n")
        #expect(lines.contains { $0.contains("\"action\":\"Start\"") })
        #expect(lines.contains { $0.contains("\"name\":\"StartTime\"") })
    }

    @Test func inspectDescribesAPlaylistFile() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let url = "http://127.0.0.1:\(port)/vod/0/index.m3u8"
        let text = try await Self.run(["inspect", url])
        #expect(text.status == 0, "stderr: \(text.error)")
        #expect(text.output.contains("segments: 10"))
        #expect(text.output.contains("ad breaks (3):"))
        #expect(text.output.contains("splice_insert"))
        #expect(text.output.contains("interstitial"))
        let (json, object) = try await Self.inspectJSON([url])
        #expect(json.status == 0)
        #expect(object["schemaVersion"] as? Int == 1 && object["kind"] as? String == "media")
        #expect(object["segmentCount"] as? Int == 10)
        #expect(object["targetDurationSeconds"] as? Int == 4 && object["totalDurationSeconds"] as? Double == 40)
        let segments = try #require(object["segments"] as? [[String: Any]])
        #expect(segments.count == 10 && segments.last?["startSeconds"] as? Double == 36)
        let breaks = try #require(object["adBreaks"] as? [[String: Any]])
        #expect(breaks.count == 3 && breaks.map { $0["startSeconds"] as? Double } == [8, 8, 24])
        let interstitial = try #require((object["interstitials"] as? [[String: Any]])?.first)
        #expect(interstitial["resumeOffsetSeconds"] as? Double == 0 && interstitial["restrict"] as? [String] == ["SKIP"])
        #expect(interstitial["assetListURI"] as? String == "/ads/assetlist.json?pod=2" && interstitial["positionSeconds"] as? Double == 24)
        await lab.stop()
    }

    @Test func inspectReportsMalformedPlaylistsWithTheirLine() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).m3u8")
        try "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:oops,\na.ts\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try await Self.run(["inspect", file.path])
        // The unreadable EXTINF is listed with its line; the URI it leaves without a duration too; and with no
        // segment left, nothing is playable.
        #expect(run.status == 1)
        #expect(run.output.contains("line 3: #EXTINF has an invalid value \"oops,\""))
        #expect(run.output.contains("line 4: a segment URI has no #EXTINF before it"))
        #expect(run.error.contains("the media playlist has no segments"))
        let missing = try await Self.run(["inspect", "/nonexistent/playlist.m3u8"])
        #expect(missing.status == 1)
    }

    @Test func playPlaysAStreamAndSummarizes() async throws {
        let lab = LabServer(clock: ContinuousClock(), configuration: LabConfiguration(segmentDuration: 1, vodSegmentCount: 2))
        let port = try await lab.start()
        let run = try await Self.run(["play", "http://127.0.0.1:\(port)/vod/master.m3u8"])
        #expect(run.status == 0, "stderr: \(run.error)")
        #expect(run.output.contains("played to the end"))
        #expect(lab.requests.all.contains { $0.path.hasSuffix("seg1.ts") })
        await lab.stop()
    }

    #if !MPV
    @Test func engineMPVWithoutTheTraitSaysHowToGetIt() async throws {
        let run = try await Self.run(["play", "--engine", "mpv", "http://127.0.0.1:9/none.m3u8"])
        #expect(run.status == 64)
        let lines = run.error.split(separator: "\n")
        #expect(lines.first?.contains("--traits MPV") == true, "\(run.error)")
        #expect(!run.output.contains("Summary"), "nothing plays")
    }
    #endif

    @Test func playFailsCleanlyOnAnUnreachableStream() async throws {
        let run = try await Self.run(["play", "http://127.0.0.1:9/none.m3u8"])
        #expect(run.status == 1)
        #expect(run.output.contains("failed"))
        #expect(run.output.contains("▶ 127.0.0.1:9/none.m3u8 — http://127.0.0.1:9/none.m3u8"), "the title names the stream: \(run.output)")
    }

    @Test("A failure is said when it happens and in the verdict, nowhere else; the stream's kind in words")
    func aFailureSaidOnce() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let run = try await Self.run(["play", "http://127.0.0.1:\(port)/vod/missing.m3u8"])
        await lab.stop()
        #expect(run.status == 1)
        #expect(run.output.components(separatedBy: "HTTP 404").count - 1 == 2, "\(run.output)")
        #expect(!run.error.contains("404"), "no log line repeats it: \(run.error)")
        #expect(run.output.contains("    result            failed at 00:00:00.000\n"), "\(run.output)")
        #expect(run.output.contains("    stream            not known\n"), "\(run.output)")
    }

    @Test("play of a local playlist file: its segments read beside it, byte ranges included; a missing one is a 404")
    func playsALocalFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("local-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["a.ts", "b.ts"] { try Data(repeating: 0x47, count: 2_000).write(to: directory.appendingPathComponent(name)) }
        try Data(repeating: 0x47, count: 3_000).write(to: directory.appendingPathComponent("all.ts"))
        let playlist = directory.appendingPathComponent("index.m3u8")
        try """
            #EXTM3U
            #EXT-X-TARGETDURATION:1
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXTINF:1,
            a.ts
            #EXTINF:1,
            #EXT-X-BYTERANGE:1000@0
            all.ts
            #EXTINF:1,
            #EXT-X-BYTERANGE:1000@1000
            all.ts
            #EXTINF:1,
            b.ts
            #EXT-X-ENDLIST
            """.write(to: playlist, atomically: true, encoding: .utf8)
        let summary = directory.appendingPathComponent("s.json").path
        let run = try await Self.run(["play", playlist.path, "--summary-json", summary])
        #expect(run.status == 0, "\(run.output)\n\(run.error)")
        #expect(run.output.contains("▶ \(directory.lastPathComponent)/index.m3u8 — file://\(playlist.path)"), "\(run.output)")
        #expect(run.output.contains("    result            played to the end"), "\(run.output)")
        // One definition behind the two startup figures. Each tracker times it as the first-frame event reaches it,
        // microseconds apart, in whole milliseconds: at most one hundredth apart as shown, never more.
        func figure(after label: String) -> Double? {
            run.output.split(separator: "\n").first { $0.hasPrefix(label) }?.dropFirst(label.count)
                .split(separator: " ").first.flatMap { Double($0) }
        }
        let firstFrame = figure(after: "    first frame       "), startTime = figure(after: "    StartTime             ")
        #expect(firstFrame != nil && startTime != nil && abs((firstFrame ?? 0) - (startTime ?? 1)) <= 0.0100001,
                "\(String(describing: firstFrame)) \(String(describing: startTime))")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: summary))) as? [String: Any])
        let requests = try #require((record["requests"] as? [String: Any])?["listed"] as? [[String: Any]])
        #expect(requests.filter { ($0["url"] as? String)?.hasSuffix("/all.ts") == true }.map { $0["bytes"] as? Int } == [1_000, 1_000],
                "each byte range read alone: \(requests)")

        // A segment that is not there is what a 404 is to a player.
        try FileManager.default.removeItem(at: directory.appendingPathComponent("b.ts"))
        let missing = try await Self.run(["play", playlist.path])
        #expect(missing.output.contains("404") || missing.output.contains("skipped"), "\(missing.output)")
        let notAFile = try await Self.run(["play", directory.appendingPathComponent("none.m3u8").path])
        #expect(notAFile.status == 64 && notAFile.error.contains("is neither an http(s) URL nor a playlist file"), "\(notAFile.error)")
    }

    @Test("Item titles name the stream: the last two path components, else the host before them", arguments: [
        ("http://127.0.0.1:9/", "127.0.0.1:9"), ("http://127.0.0.1:9/live/", "127.0.0.1:9/live"),
        ("http://127.0.0.1:9/a/b/vod/master.m3u8?token=1", "vod/master.m3u8"),
    ])
    func titles(url: String, title: String) async throws {
        let run = try await Self.run(["play", url])
        #expect(run.output.contains("▶ \(title) — "), "\(run.output)")
    }
}
