import Foundation
import PlaytraceCore
import PlaytraceLab
import PlaytraceTestSupport
import Testing

/// `playtrace probe`, run as a user runs it, against the lab on loopback.
@Suite("playtrace probe: many viewers, one verdict", .serialized)
struct ProbeCommandTests {
    /// The summary file's document, checked against `schemas/probe-summary.schema.json`.
    static func summary(at path: String) async throws -> [String: Any] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let errors = try await JSONSchemaCheck.errors(inText: text, schema: "probe-summary")
        #expect(errors.isEmpty, "\(path) conforms to schemas/probe-summary.schema.json: \(errors)")
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("Six viewers of the lab's Harmonic live stream, each with its own ad session: every beacon called for fires once")
    func harmonicLive() async throws {
        // A break of two 2 s segments every four, in a window of four: whenever a viewer joins, its 14 s cross ad
        // events, and a break it played leaves the window (the viewer retires it: folded into its counts).
        let lab = LabServer(clock: ContinuousClock(), configuration: LabConfiguration(
            variants: LabConfiguration.loadLadder, segmentDuration: 2, liveWindowSegments: 4, liveAdBreakInterval: 4,
            liveAdBreakLength: 2))
        let port = try await lab.start()
        let path = CLITests.temporaryPath("probe-harmonic") + ".json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try await CLITests.run(["probe", "http://127.0.0.1:\(port)/ssai/harmonic/live/master.m3u8", "--ads", "harmonic",
                                          "--viewers", "6", "--ramp", "2", "--duration", "14", "--seed", "5",
                                          "--summary-json", path])
        let hits = lab.beacons.accepted().count
        await lab.stop()
        #expect(run.status == 0, "\(run.output)\n\(run.error)")
        #expect(run.output.contains("verdict: OK — 6 viewer(s) played"))
        let document = try await Self.summary(at: path)
        let viewers = try #require(document["viewers"] as? [String: Any])
        #expect(viewers["started"] as? Int == 6 && viewers["ended"] as? Int == 6 && viewers["failed"] as? Int == 0)
        let beacons = try #require((document["beacons"] as? [String: Any])?["totals"] as? [String: Int])
        #expect((beacons["expected"] ?? 0) > 0)
        #expect(beacons["fired"] == beacons["expected"] && beacons["delivered"] == beacons["fired"])
        #expect(beacons["missed"] == 0 && beacons["duplicated"] == 0 && beacons["unexpected"] == 0)
        // Each beacon request was counted once, by kind, and the lab saw them all.
        let requests = try #require(document["requests"] as? [String: [String: Any]])
        #expect(requests["beacon"]?["requests"] as? Int == beacons["delivered"])
        #expect(hits == beacons["delivered"], "the lab's sink saw each beacon once")
        let startup = try #require(document["startup"] as? [String: Any])
        #expect(startup["count"] as? Int == 6)
        let worst = try #require(document["worst"] as? [[String: Any]])
        #expect(worst.count == 6, "the worst viewers, up to ten")
        // Every viewer retired the breaks it played once they left the window; their beacons are in the totals and
        // their latenesses in the distribution (one a URL delivered), not in the viewer's list.
        let retired = worst.map { (($0["summary"] as? [String: Any])?["ads"] as? [String: Any])?["podsRetired"] as? Int ?? 0 }
        #expect(retired.allSatisfy { $0 > 0 }, "\(retired)")
        let lateness = try #require((document["beacons"] as? [String: Any])?["lateness"] as? [String: Any])
        #expect(lateness["count"] as? Int == hits)
    }

    @Test("A URL that does not answer, answers 404, or is no playlist: one line naming it, exit 2, no viewer started",
          arguments: ["closed", "/no/such/master.m3u8", "/lab/requests"])
    func badURL(path: String) async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let url = path == "closed" ? "http://127.0.0.1:1/master.m3u8" : "http://127.0.0.1:\(port)\(path)"
        let run = try await CLITests.run(["probe", url, "--viewers", "5", "--duration", "5"])
        let segments = lab.requests.all.filter { $0.path.hasSuffix(".ts") }
        await lab.stop()
        #expect(run.status == 2, "\(run.output)\n\(run.error)")
        let lines = run.error.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("Error: http://127.0.0.1:"), "\(run.error)")
        #expect(run.error.contains(path == "closed" ? "does not answer" : "is not a stream"))
        #expect(segments.isEmpty && !run.output.contains("viewers"))
    }

    @Test("A metrics port that cannot be listened on: one line naming it, exit 2, no viewer started")
    func metricsPortInUse() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let run = try await CLITests.run(["probe", "http://127.0.0.1:\(port)/vod/master.m3u8", "--viewers", "2",
                                          "--metrics-port", String(port), "--metrics-host", "127.0.0.1"])
        let segments = lab.requests.all.filter { $0.path.hasSuffix(".ts") }
        await lab.stop()
        #expect(run.status == 2, "\(run.output)\n\(run.error)")
        #expect(run.error == "Error: --metrics-port: cannot listen on 127.0.0.1:\(port) (in use, or not an address of this machine)\n",
                "\(run.error)")
        #expect(segments.isEmpty)
    }

    @Test("Too few file descriptors for the viewers asked for: said up front, with the number needed")
    func descriptors() async throws {
        let run = try await CommandRunner.run(executable: URL(fileURLWithPath: "/bin/sh"), [
            "-c", "ulimit -n 256 && exec \"$0\" probe http://127.0.0.1:1/master.m3u8 --viewers 1000",
            CLITests.executable.path,
        ])
        #expect(run.status == 2, "\(run.output)\n\(run.error)")
        // Two connections a viewer, 1,024 beacons under way, 64 for the process.
        #expect(run.error.contains("1000 viewer(s) need about 3088 file descriptors"), "\(run.error)")
        #expect(run.error.contains("ulimit -n 3088"))
    }

    @Test("Ctrl-C mid-ramp: the ramp stops, every viewer started ends as its normal end does, the summary is written")
    func interruptedMidRamp() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let path = CLITests.temporaryPath("probe-interrupted") + ".json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = Process()
        process.executableURL = CLITests.executable
        process.arguments = ["probe", "http://127.0.0.1:\(port)/vod/master.m3u8", "--viewers", "40", "--ramp", "40",
                             "--duration", "60", "--summary-json", path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wall time: a real process ramps in real time. The signal goes once a few viewers have fetched segments.
        for _ in 0..<400 where lab.requests.all.filter({ $0.path.hasSuffix(".ts") }).count < 6 {
            try await Task.sleep(for: .milliseconds(25))
        }
        kill(process.processIdentifier, SIGINT)
        let text = await output.fileHandleForReading.readText()
        await process.ended()
        await lab.stop()
        #expect(process.terminationStatus == 130, "\(text)")
        let document = try await Self.summary(at: path)
        let viewers = try #require(document["viewers"] as? [String: Any])
        let started = try #require(viewers["started"] as? Int)
        #expect(started >= 1 && started < 40, "the ramp stopped: \(started) of 40 started")
        #expect(viewers["ended"] as? Int == started, "every viewer started ended")
        #expect(document["complete"] as? Bool == false)
        #expect((document["verdict"] as? [String: Any])?["interrupted"] as? Bool == true)
        #expect(text.contains("Probe summary") && text.contains("verdict: "))
    }

    @Test("A second signal quits at once, writing what is known: the summary (incomplete) and the report")
    func secondSignalQuitsAtOnce() async throws {
        let lab = LabServer(clock: ContinuousClock(), configuration: LabConfiguration(variants: LabConfiguration.loadLadder))
        let port = try await lab.start()
        let path = CLITests.temporaryPath("probe-quit") + ".json", report = CLITests.temporaryPath("probe-quit") + ".html"
        defer { for file in [path, report] { try? FileManager.default.removeItem(atPath: file) } }
        let process = Process()
        process.executableURL = CLITests.executable
        process.arguments = ["probe", "http://127.0.0.1:\(port)/live/master.m3u8", "--viewers", "20", "--ramp", "20",
                             "--duration", "60", "--summary-json", path, "--report", report]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        // Once some viewers play and the probe has said what it knows at least once (every second).
        for _ in 0..<400 where lab.requests.all.filter({ $0.path.hasSuffix(".ts") }).count < 4 {
            try await Task.sleep(for: .milliseconds(25))
        }
        try await Task.sleep(for: .milliseconds(1_200))
        // A signal of another kind right after the first is a second one, however close.
        kill(process.processIdentifier, SIGINT)
        kill(process.processIdentifier, SIGTERM)
        let text = await errors.fileHandleForReading.readText()
        await process.ended()
        await lab.stop()
        // The two arrive together: whichever the process saw second is the one it quits by (SIGINT 130, SIGTERM 143).
        #expect([130, 143].contains(process.terminationStatus), "\(text)")
        #expect(text.contains("quit at once: what was known is in \(path) and \(report)"), "\(text)")
        let document = try await Self.summary(at: path)
        #expect(document["complete"] as? Bool == false)
        #expect((document["verdict"] as? [String: Any])?["interrupted"] as? Bool == true)
        let started = try #require((document["viewers"] as? [String: Any])?["started"] as? Int)
        #expect(started >= 1 && started < 20, "\(started) viewers had started")
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(html.contains("Incomplete: the probe was interrupted"))
    }

    @Test("An origin that dies mid-run: its viewers fail over, then fail, each counted; the summary and report are written")
    func originDies() async throws {
        let ready = CLITests.temporaryPath("probe-origin") + ".ready.json"
        let path = CLITests.temporaryPath("probe-origin") + ".json", report = CLITests.temporaryPath("probe-origin") + ".html"
        defer { for file in [ready, path, report] { try? FileManager.default.removeItem(atPath: file) } }
        // The origin in a process of its own, to be killed.
        let origin = Process()
        origin.executableURL = CLITests.executable
        origin.arguments = ["lab", "--port", "0", "--ladder", "load", "--ready-file", ready]
        origin.standardOutput = FileHandle.nullDevice
        origin.standardError = FileHandle.nullDevice
        try origin.run()
        for _ in 0..<400 where !FileManager.default.fileExists(atPath: ready) { try await Task.sleep(for: .milliseconds(25)) }
        let address = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: ready)))
            as? [String: Any])
        let base = try #require(address["url"] as? String)
        let probe = Process()
        probe.executableURL = CLITests.executable
        probe.arguments = ["probe", base + "/live/master.m3u8", "--viewers", "5", "--ramp", "1", "--duration", "60",
                           "--summary-json", path, "--report", report]
        let output = Pipe(), errors = Pipe()
        probe.standardOutput = output
        probe.standardError = errors
        try probe.run()
        try await Task.sleep(for: .seconds(4))
        origin.terminate()
        await origin.ended()
        async let printed = output.fileHandleForReading.readText()
        async let printedErrors = errors.fileHandleForReading.readText()
        let (text, errorText) = await (printed, printedErrors)
        await probe.ended()
        #expect(probe.terminationStatus == 1, "\(text)\n\(errorText)")
        #expect(text.contains("verdict: FAILED — 5 of 5 viewer(s) failed"), "\(text)")
        #expect(!errorText.contains("warning"), "each viewer's warnings are counted, not logged: \(errorText.prefix(2_000))")
        let document = try await Self.summary(at: path)
        let viewers = try #require(document["viewers"] as? [String: Any])
        #expect(viewers["failed"] as? Int == 5 && viewers["ended"] as? Int == 5 && viewers["failedToStart"] as? Int == 0)
        let elapsed = try #require((document["population"] as? [String: Any])?["elapsedSeconds"] as? Double)
        #expect(elapsed < 50, "the probe ended when its last viewer failed, not at its duration: \(elapsed) s")
        let playlists = try #require((document["requests"] as? [String: [String: Any]])?["playlist"]?["outcomes"] as? [String: Int])
        #expect((playlists["connect"] ?? 0) > 0, "the refused connections, by outcome: \(playlists)")
        let worst = try #require(document["worst"] as? [[String: Any]])
        #expect(worst.count == 5 && worst.allSatisfy { ($0["reason"] as? String)?.contains("cannot connect") == true })
        #expect(try String(contentsOfFile: report, encoding: .utf8).contains("badge bad\">FAILED"))
    }
}
