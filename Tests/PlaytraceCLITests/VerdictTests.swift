import Foundation
import PlaytraceCore
import PlaytraceLab
import PlaytraceTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The session's verdict as a user reads it: one line, the exit status and `--summary-json` agreeing with what
/// happened; and nothing lost when signals end a session. Wall time, for a reason: these run the real command,
/// which plays in real time.
@Suite("The verdict and signals", .serialized)
struct VerdictTests {
    /// The summary at `path`, once it is found to conform to its schema.
    static func json(_ path: String) async throws -> [String: Any] {
        let errors = try await JSONSchemaCheck.errors(in: path, schema: "session-summary")
        #expect(errors.isEmpty, "the summary conforms to schemas/session-summary.schema.json: \(errors)")
        return try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    private static func verdictLine(_ output: String) -> String? {
        output.split(separator: "\n").last { $0.hasPrefix("verdict: ") }.map(String.init)
    }

    @Test("A viewer at 2× gets every beacon of the break: verdict OK, exit 0, succeeded in the JSON")
    func twiceTheSpeed() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let summary = CLITests.temporaryPath("verdict-2x.json")
        defer { try? FileManager.default.removeItem(atPath: summary) }
        let run = try await CLITests.run(["play", "http://127.0.0.1:\(port)/ssai/harmonic/vod/master.m3u8", "--ads", "harmonic",
                                          "--script", "at 7 rate 2; at 20 stop", "--summary-json", summary])
        await lab.stop()
        #expect(run.status == 0, "stdout: \(run.output)\nstderr: \(run.error)")
        #expect(run.output.contains("beacons           12 expected, 12 fired"), "\(run.output)")
        let line = try #require(Self.verdictLine(run.output), "\(run.output)")
        #expect(line.hasPrefix("verdict: OK — playback played"), "\(line)")
        #expect(line.contains("ads: all 12 beacon(s) called for fired once and were delivered"), "\(line)")
        let json = try await Self.json(summary)
        #expect(json["succeeded"] as? Bool == true)
        #expect(((json["ads"] as? [String: Any])?["counts"] as? [String: Any])?["missed"] as? Int == 0)
        #expect((json["verdict"] as? [String: Any])?["playback"] as? String == "played")
    }

    @Test("A beacon that fails for good fails the session; --accept failed lets it pass, and the verdict still names it")
    func failedBeacon() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        lab.faults.add(LabFault(pathContains: "/ad-1/midpoint", kind: .status(404)))
        let summary = CLITests.temporaryPath("verdict-failed.json")
        defer { try? FileManager.default.removeItem(atPath: summary) }
        let url = "http://127.0.0.1:\(port)/ssai/harmonic/vod/master.m3u8"
        let arguments = ["play", url, "--ads", "harmonic", "--beacon-attempts", "1", "--script", "at 6 rate 2; at 17 stop",
                         "--summary-json", summary]
        let failed = try await CLITests.run(arguments)
        #expect(failed.status == 1, "stdout: \(failed.output)\nstderr: \(failed.error)")
        let line = try #require(Self.verdictLine(failed.output), "\(failed.output)")
        #expect(line.hasPrefix("verdict: FAILED — "), "\(line)")
        #expect(line.contains("1 beacon(s) failed for good"), "\(line)")
        let json = try await Self.json(summary)
        #expect(json["succeeded"] as? Bool == false)
        let reasons = ((json["verdict"] as? [String: Any])?["reasons"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
        #expect(reasons.contains { $0.contains("failed for good") }, "\(reasons)")
        // Its report, ready to forward: the stream in the title, the failed beacon by name where the eye lands first,
        // no internal key.
        let reportPath = CLITests.temporaryPath("verdict-failed.html")
        defer { try? FileManager.default.removeItem(atPath: reportPath) }
        let report = try await CLITests.run(["report", summary, "-o", reportPath])
        let html = try String(contentsOfFile: reportPath, encoding: .utf8)
        #expect(report.status == 0 && html.contains("<title>Playtrace play vod/master.m3u8 — FAILED"), "\(report.error)")
        let verdictPart = html.components(separatedBy: "<h2>").prefix(2).joined()
        #expect(verdictPart.contains("<ul class=\"failures\"><li>Beacon break-1/ad-1/midpoint failed: HTTP 404"), "\(verdictPart)")
        #expect(!html.contains("beacon:") && !html.contains(">break-1/ad-1/midpoint@"), "no internal key shown")

        let accepted = try await CLITests.run(arguments + ["--accept", "failed"])
        await lab.stop()
        #expect(accepted.status == 0, "stdout: \(accepted.output)\nstderr: \(accepted.error)")
        let acceptedLine = try #require(Self.verdictLine(accepted.output))
        #expect(acceptedLine.hasPrefix("verdict: OK — ") && acceptedLine.contains("(accepted: 1 beacon(s) failed for good"),
                "\(acceptedLine)")
        #expect(try await Self.json(summary)["succeeded"] as? Bool == true)
    }

    @Test("A start that fails: verdict FAILED naming the failure, exit 1")
    func failedStart() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let run = try await CLITests.run(["play", "http://127.0.0.1:\(port)/nothing/master.m3u8"])
        await lab.stop()
        #expect(run.status == 1)
        let line = try #require(Self.verdictLine(run.output), "\(run.output)")
        #expect(line.hasPrefix("verdict: FAILED — playback failed (") && line.contains("HTTP 404"), "\(line)")
        #expect(!run.output.contains("httpStatus") && !run.output.contains("mediaPlaylist") && !run.output.contains("multivariantPlaylist"),
                "no Swift case names in what people read: \(run.output)")
        // A 404 is not retried: one request for the playlist, one warning at most.
        #expect(lab.requests.all.filter { $0.path == "/nothing/master.m3u8" }.count == 1)
    }

    /// Runs `play` on the lab's live stream under `timeout -s TERM`, which signals the process and then its group:
    /// one SIGTERM arrives twice.
    @Test("timeout -s TERM: the whole output and the summary JSON, every time")
    func underTimeout() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        for attempt in 1...2 {
            let summary = CLITests.temporaryPath("timeout-\(attempt).json")
            defer { try? FileManager.default.removeItem(atPath: summary) }
            let run = try await CLITests.run(viaTimeout: 4, ["play", "http://127.0.0.1:\(port)/live/master.m3u8",
                                                             "--summary-json", summary])
            #expect(run.status == 124, "timeout's status when it ended the command; stderr: \(run.error)")
            #expect(run.output.contains("Summary") && run.output.contains("interrupted at"), "\(run.output)")
            let line = try #require(Self.verdictLine(run.output), "\(run.output)")
            #expect(line.hasPrefix("verdict: OK (interrupted) — playback played"), "\(line)")
            #expect(!run.error.contains("quit at once:"), "one SIGTERM, said twice, is one: \(run.error)")
            let verdict = try await Self.json(summary)["verdict"] as? [String: Any]
            #expect(verdict?["interrupted"] as? Bool == true)
        }
        await lab.stop()
    }

    @Test("A second signal during the drain quits at once: what was printed is flushed, the JSON holds what was known")
    func quitDuringTheDrain() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        // The telemetry destination answers 503: the drain retries until its timeout.
        lab.faults.add(LabFault(pathContains: "/sink/", kind: .status(503)))
        let summary = CLITests.temporaryPath("quit.json")
        let outputPath = CLITests.temporaryPath("quit.out")
        defer { for path in [summary, outputPath] { try? FileManager.default.removeItem(atPath: path) } }
        #expect(FileManager.default.createFile(atPath: outputPath, contents: nil))
        let process = Process()
        process.executableURL = CLITests.executable
        process.arguments = ["play", "http://127.0.0.1:\(port)/vod/master.m3u8", "--summary-json", summary,
                             "--otlp", "http://127.0.0.1:\(port)/sink/otlp", "--drain-timeout", "30"]
        // A file, not a terminal: line-buffered output must reach it as it is printed.
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        func printed() -> String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
        for _ in 0..<400 where !printed().contains("metric event at") { try await Task.sleep(for: .milliseconds(25)) }
        #expect(printed().contains("[tracker"), "lines reach the file as they are printed: \(printed())")
        kill(process.processIdentifier, SIGTERM)
        for _ in 0..<400 where !printed().contains("Summary") { try await Task.sleep(for: .milliseconds(25)) }
        try await Task.sleep(for: .milliseconds(1_500))
        kill(process.processIdentifier, SIGINT)
        await process.ended()
        try output.close()
        await lab.stop()
        #expect(process.terminationStatus == 128 + SIGINT)
        #expect(printed().contains("interrupted at") && printed().contains("Summary"), "\(printed())")
        let json = try await Self.json(summary)
        #expect(json["succeeded"] as? Bool == false)
        #expect((json["verdict"] as? [String: Any])?["interrupted"] as? Bool == true)
    }

    @Test("SIGTERM during start-up (the ad session being set up): the session ends as its normal end does")
    func signalDuringStartUp() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        // The session set-up's first request is answered 3 s late: the signal comes while it waits.
        lab.faults.add(LabFault(pathContains: "/ssai/harmonic/vod/master.m3u8", kind: .delay(milliseconds: 3_000), remaining: 1))
        let summary = CLITests.temporaryPath("startup.json")
        defer { try? FileManager.default.removeItem(atPath: summary) }
        let process = Process()
        process.executableURL = CLITests.executable
        process.arguments = ["play", "http://127.0.0.1:\(port)/ssai/harmonic/vod/master.m3u8", "--ads", "harmonic",
                             "--summary-json", summary]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<400 where !lab.requests.all.contains(where: { $0.path.hasPrefix("/ssai/harmonic/vod/") }) {
            try await Task.sleep(for: .milliseconds(10))
        }
        try await Task.sleep(for: .milliseconds(300))
        kill(process.processIdentifier, SIGTERM)
        let text = await output.fileHandleForReading.readText()
        await process.ended()
        await lab.stop()
        #expect(process.terminationStatus == 128 + SIGTERM)
        #expect(text.contains("Summary") && text.contains("interrupted at"), "\(text)")
        // Interrupted as playback began: whether a frame showed first is a matter of milliseconds.
        let line = Self.verdictLine(text) ?? ""
        #expect(line.hasPrefix("verdict: OK (interrupted) — playback played")
                || line.hasPrefix("verdict: FAILED (interrupted) — playback never started"), "\(text)")
        let verdict = try await Self.json(summary)["verdict"] as? [String: Any]
        #expect(verdict?["interrupted"] as? Bool == true)
    }

    @Test("--duration has a wall-clock companion: a stream that never plays ends the session, stalled, in the verdict")
    func durationNotReached() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        // The multivariant playlist is answered after 25 s: nothing plays for the first 2 + 15 s.
        lab.faults.add(LabFault(pathContains: "/live/master.m3u8", kind: .delay(milliseconds: 25_000), remaining: 1))
        let began = ContinuousClock.now
        let run = try await CLITests.run(["play", "http://127.0.0.1:\(port)/live/master.m3u8", "--duration", "2"])
        let took = ContinuousClock.now - began
        await lab.stop()
        #expect(run.status == 1, "\(run.output)")
        #expect(run.output.contains("stopped: --duration 2.00 s not reached: 0.00 s of media played in 17."), "\(run.output)")
        let line = try #require(Self.verdictLine(run.output), "\(run.output)")
        #expect(line.hasPrefix("verdict: FAILED — playback never started; no frame was shown, --duration 2.00 s not reached")
                && line.contains("(the stream stalled)"), "\(line)")
        #expect(took < .seconds(24), "it ended on its own: \(took)")
    }

    @Test("--version; an unwritable --summary-json refused before the session; secrets from the environment")
    func commandLine() async throws {
        let version = try await CLITests.run(["--version"])
        #expect(version.status == 0 && version.output.trimmingCharacters(in: .whitespacesAndNewlines) == PlaytraceVersion.current)
        let unwritable = try await CLITests.run(["play", "http://127.0.0.1:9/x.m3u8", "--summary-json", "/nonexistent/dir/s.json"])
        CLIRobustnessTests.expectCleanFailure(unwritable, naming: "--summary-json /nonexistent/dir/s.json: No such file or directory",
                                              status: 64)
        #expect(unwritable.output.isEmpty, "refused before the session starts")
        // An unknown option or subcommand names itself, wherever it stands (not an error about the next argument).
        for arguments in [["play", "http://127.0.0.1:9/x.m3u8", "--add", "harmonic"], ["play", "--add", "harmonic", "http://127.0.0.1:9/x.m3u8"]] {
            let unknown = try await CLITests.run(arguments)
            CLIRobustnessTests.expectCleanFailure(unknown, naming: "unknown option '--add'; did you mean '--ads'?", status: 64)
        }
        CLIRobustnessTests.expectCleanFailure(try await CLITests.run(["plya", "http://127.0.0.1:9/x.m3u8"]),
                                              naming: "unknown subcommand 'plya'; did you mean 'play'?", status: 64)
        let noKey = try await CLITests.run(["play", "http://127.0.0.1:9/x.m3u8", "--newrelic-account", "1"])
        CLIRobustnessTests.expectCleanFailure(noKey, naming: "--newrelic-key or NEW_RELIC_LICENSE_KEY", status: 64)
        // A token from the environment reaches InfluxDB (the lab's sink stands for it) without being on the command line.
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let fromEnvironment = try await CLITests.run(["play", "http://127.0.0.1:\(port)/vod/master.m3u8", "--duration", "1",
                                                      "--influx", "http://127.0.0.1:\(port)/sink/influx"],
                                                     environment: ["INFLUX_TOKEN": "secret-token"])
        await lab.stop()
        #expect(fromEnvironment.status == 0, "stdout: \(fromEnvironment.output)\nstderr: \(fromEnvironment.error)")
        let writes = lab.sink.accepted(under: "/sink/influx/api/v2/write")
        #expect(!writes.isEmpty && writes.allSatisfy { $0.headers["authorization"] == "Token secret-token" })
    }
}
