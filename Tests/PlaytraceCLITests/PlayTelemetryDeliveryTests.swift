import Foundation
import PlaytraceLab
import PlaytraceTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `play` with `--influx`, against the real InfluxDB: batches arrive while the session plays, and a signal delivers
/// the rest.
@Suite("play delivers its telemetry while it plays", .serialized, .enabled(if: InfluxDBServer.url != nil))
struct PlayTelemetryDeliveryTests {
    @Test(arguments: [SIGINT, SIGTERM])
    func batchesArriveDuringTheSessionAndTheSignalDeliversTheRest(signal: Int32) async throws {
        let server = InfluxDBServer(url: try #require(InfluxDBServer.url))
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let jsonl = FileManager.default.temporaryDirectory.appendingPathComponent("delivery-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: jsonl) }
        let process = Process()
        process.executableURL = CLITests.executable
        process.arguments = ["play", "http://127.0.0.1:\(port)/live/master.m3u8", "--influx", server.url.absoluteString,
                             "--influx-db", server.database, "--jsonl", jsonl.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wall time, for a reason: a real process plays in real time. The Start event's batch leaves at once; the
        // test waits (bounded) until InfluxDB has it while the process still runs.
        var stored: [[String: Any]] = []
        for _ in 0..<300 where process.isRunning {
            stored = (try? await server.rows("SELECT * FROM events")) ?? []
            if stored.contains(where: { $0["action"] as? String == "Start" }) { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(process.isRunning, "the session still plays")
        #expect(stored.contains { $0["action"] as? String == "Start" }, "the Start event reached InfluxDB during the session")
        kill(process.processIdentifier, signal)
        let text = await output.fileHandleForReading.readText()
        await process.ended()
        await lab.stop()
        #expect(process.terminationStatus == 128 + signal)
        // Every event the session emitted (the JSON lines file has them all) is in InfluxDB.
        let emitted = try String(contentsOf: jsonl, encoding: .utf8).split(separator: "\n")
            .filter { $0.contains("\"action\":") }.count
        let events = try await server.rows("SELECT * FROM events")
        #expect(events.count == emitted, "\(events.count) stored of \(emitted) emitted")
        #expect(events.contains { $0["action"] as? String == "Stop" }, "the Stop the signal caused is stored")
        #expect(text.contains("batch(es) delivered") && !text.contains("waiting"), "summary: \(text)")
        _ = try? await server.query("DROP DATABASE \(server.database)")
        try await server.transport.shutdown()
    }
}
