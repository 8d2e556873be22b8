import Foundation
import PlaytraceLab
import PlaytraceTestSupport
import Testing

/// Secrets are never stored or printed (issue 44): a stream URL's `user:password`, a backend URL's, an InfluxDB
/// token and OTLP headers, planted in one run, appear in no output and no file; the outbox holds none and is private;
/// `outbox --deliver` takes them as `play` does.
@Suite("Secrets: never at rest, never printed", .serialized)
struct SecretsTests {
    static let secrets = ["S3CRETPASS", "INFLUXPASS", "TOKENSECRET", "OTLPPASS", "OTLPKEYVALUE", "ENVKEYSECRET"]

    private static func leaks(in text: String) -> [String] { secrets.filter { text.contains($0) } }

    private static func leaks(inFile path: String) -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return secrets.filter { data.range(of: Data($0.utf8)) != nil }
    }

    private static func permissions(_ path: String) -> Int? {
        try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    }

    /// Wall time, for a reason: the command plays in real time (4 s of the lab's on-demand stream).
    @Test("Planted credentials reach their servers and no output, log or file")
    func plantedSecrets() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let directory = CLITests.temporaryPath("secrets")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let outbox = directory + "/outbox.sqlite", summary = directory + "/summary.json"
        let report = directory + "/report.html", jsonl = directory + "/events.jsonl"
        // InfluxDB refuses for now: its batches stay in the outbox file, which must hold no token.
        lab.faults.add(LabFault(pathContains: "/sink/influx", kind: .status(503)))
        let run = try await CLITests.run(
            ["play", "http://ops:S3CRETPASS@127.0.0.1:\(port)/vod/master.m3u8", "--script", "at 4 stop", "--plain",
             "--influx", "http://inf:INFLUXPASS@127.0.0.1:\(port)/sink/influx",
             "--otlp", "http://o:OTLPPASS@127.0.0.1:\(port)/sink/otlp", "--otlp-header", "x-api-key=OTLPKEYVALUE",
             "--outbox", outbox, "--summary-json", summary, "--report", report, "--jsonl", jsonl, "--drain-timeout", "2",
             "--accept", "telemetry"],
            // swift-otel reads this one too, and logged its value on standard error.
            environment: ["INFLUX_TOKEN": "TOKENSECRET", "OTEL_EXPORTER_OTLP_HEADERS": "x-env-key=ENVKEYSECRET"])
        #expect(Self.leaks(in: run.output + run.error).isEmpty, "printed: \(Self.leaks(in: run.output + run.error))")
        #expect(run.output.contains("ops:***@") || !run.output.contains("ops:"), "a URL's password shows as ***")
        for file in [summary, report, jsonl, outbox, outbox + "-wal", outbox + "-shm"] {
            #expect(Self.leaks(inFile: file).isEmpty, "\(file) holds \(Self.leaks(inFile: file))")
        }
        #expect(FileManager.default.fileExists(atPath: summary) && FileManager.default.fileExists(atPath: jsonl))
        for file in [outbox, outbox + "-wal", outbox + "-shm"] where FileManager.default.fileExists(atPath: file) {
            #expect(Self.permissions(file) == 0o600, "\(file) is private")
        }
        // The credentials went where they belong, attached at delivery.
        let otlp = lab.sink.accepted(under: "/sink/otlp")
        #expect(!otlp.isEmpty && otlp.allSatisfy { $0.headers["x-api-key"] == "OTLPKEYVALUE" })
        #expect(otlp.allSatisfy { $0.headers["x-env-key"] == "ENVKEYSECRET" })
        #expect(otlp.allSatisfy { $0.headers["authorization"] == "Basic " + Data("o:OTLPPASS".utf8).base64EncodedString() })

        // The batches left behind: without a token, outbox --deliver says what it lacks; with it, they go.
        lab.faults.clear()
        let bare = try await CLITests.run(["outbox", outbox, "--deliver", "--timeout", "5"], environment: ["INFLUX_TOKEN": ""])
        #expect(bare.status == 1, "still waiting: \(bare.output) \(bare.error)")
        #expect(bare.output.contains("needs credentials") && bare.output.contains("--influx-token"), "\(bare.output)")
        #expect(lab.sink.accepted(under: "/sink/influx").isEmpty, "nothing sent without its token")
        let delivered = try await CLITests.run(["outbox", outbox, "--deliver", "--timeout", "10"],
                                               environment: ["INFLUX_TOKEN": "TOKENSECRET"])
        await lab.stop()
        #expect(delivered.status == 0, "\(delivered.output) \(delivered.error)")
        let influx = lab.sink.accepted(under: "/sink/influx")
        #expect(!influx.isEmpty && influx.allSatisfy { $0.headers["authorization"] == "Token TOKENSECRET" })
        #expect(Self.leaks(in: bare.output + bare.error + delivered.output + delivered.error).isEmpty)
    }
}
