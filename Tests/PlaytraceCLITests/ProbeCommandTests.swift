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
        // A break of two 4 s segments every four: whenever a viewer joins, its 14 s cross ad events.
        let lab = LabServer(clock: ContinuousClock(), configuration: LabConfiguration(
            variants: LabConfiguration.loadLadder, liveAdBreakInterval: 4, liveAdBreakLength: 2))
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
        #expect(((document["worst"] as? [[String: Any]])?.count ?? 0) == 6, "the worst viewers, up to ten")
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

    @Test("Too few file descriptors for the viewers asked for: said up front, with the number needed")
    func descriptors() async throws {
        let run = try await CommandRunner.run(executable: URL(fileURLWithPath: "/bin/sh"), [
            "-c", "ulimit -n 256 && exec \"$0\" probe http://127.0.0.1:1/master.m3u8 --viewers 1000",
            CLITests.executable.path,
        ])
        #expect(run.status == 2, "\(run.output)\n\(run.error)")
        #expect(run.error.contains("1000 viewer(s) need about 2064 file descriptors"), "\(run.error)")
        #expect(run.error.contains("ulimit -n 2064"))
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
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
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
}
