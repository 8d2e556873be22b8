import Foundation
import PlaytraceLab
import PlaytraceNetwork
import PlaytraceCore
import PlaytraceTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Outbox file across a kill -9", .serialized)
struct OutboxKillTests {
    private static let count = 40

    /// Wall time, for a reason: a real process is killed while it delivers. The lab holds each delivery 60 ms so
    /// that the kill lands in the middle of the flush; the test waits on what the lab received, not on a duration.
    @Test("Killed with SIGKILL in the middle of a flush, then run again: every message arrives; a repeat only with its idempotency key")
    func killMidFlush() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        lab.faults.add(LabFault(pathContains: "/sink/soak/", kind: .delay(milliseconds: 60)))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("kill-\(UUID().uuidString).sqlite").path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        do {
            let outbox = try Outbox(path: path, couriers: [])
            for index in 0..<Self.count {
                try await outbox.persist(OutboxMessage(key: "soak-\(index)", destination: "influxdb", payload: Array("m\(index)".utf8),
                                                       metadata: ["url": "http://127.0.0.1:\(port)/sink/soak/\(index)"]))
            }
        }
        func received() -> [SinkDelivery] { lab.sink.all.filter { $0.path.hasPrefix("/sink/soak/") } }

        let process = Process()
        process.executableURL = CLITests.executable
        process.arguments = ["outbox", path, "--deliver"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = ContinuousClock.now + .seconds(60)
        while received().count < 8, ContinuousClock.now < deadline, process.isRunning {
            try await Task.sleep(for: .milliseconds(5))
        }
        kill(process.processIdentifier, SIGKILL)
        await process.ended()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        let beforeRestart = received().count
        #expect(beforeRestart >= 8 && beforeRestart < Self.count, "killed in the middle of the flush")

        let resumed = try await CLITests.run(["outbox", path, "--deliver"])
        await lab.stop()
        #expect(resumed.status == 0, "stderr: \(resumed.error)")
        #expect(resumed.output.contains("0 waiting"))
        let deliveries = received()
        let keys = deliveries.compactMap { $0.headers["idempotency-key"] }
        #expect(keys.count == deliveries.count, "every delivery carries its key")
        #expect(Set(keys) == Set((0..<Self.count).map { "soak-\($0)" }), "nothing lost")
        #expect(keys.count - Set(keys).count <= 1, "at most the message in flight at the kill arrives twice")
        for delivery in deliveries {
            let index = delivery.path.dropFirst("/sink/soak/".count)
            #expect(delivery.headers["idempotency-key"] == "soak-\(index)" && delivery.body == Array("m\(index)".utf8),
                    "a repeat is the same message with the same key")
        }
    }

    /// Wall time, for a reason: a real process is killed. The contract: a batch is on disk at most the outbox's
    /// store interval (250 ms) after it is closed (Start closes one at once); the test allows a second.
    @Test("play killed with SIGKILL a second after its Start: the Start's batch is in the outbox file, and delivered later")
    func killDuringPlay() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("kill-play-\(UUID().uuidString).sqlite").path
        let jsonl = FileManager.default.temporaryDirectory.appendingPathComponent("kill-play-\(UUID().uuidString).jsonl")
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            try? FileManager.default.removeItem(at: jsonl)
        }
        // The lab's sink stands for InfluxDB, answering 503 while the session plays: every batch waits in the
        // outbox.
        lab.faults.add(LabFault(pathContains: "/sink/kill-play", kind: .status(503)))
        let process = Process()
        process.executableURL = CLITests.executable
        process.arguments = ["play", "http://127.0.0.1:\(port)/live/master.m3u8",
                             "--influx", "http://127.0.0.1:\(port)/sink/kill-play", "--outbox", path, "--jsonl", jsonl.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<600 where process.isRunning {
            if let text = try? String(contentsOf: jsonl, encoding: .utf8), text.contains("\"action\":\"Start\"") { break }
            try await Task.sleep(for: .milliseconds(25))
        }
        try await Task.sleep(for: .seconds(1))
        kill(process.processIdentifier, SIGKILL)
        await process.ended()
        #expect(process.terminationReason == .uncaughtSignal)

        let outbox = try Outbox(path: path, couriers: [])
        let statistics = try await outbox.statistics()
        #expect(statistics.pendingByDestination["influxdb"].map { $0 >= 1 } == true, "\(statistics)")
        // Delivered by the next run, once the server answers.
        lab.faults.clear()
        let resumed = try await CLITests.run(["outbox", path, "--deliver"])
        await lab.stop()
        #expect(resumed.status == 0, "stderr: \(resumed.error)")
        let bodies = try lab.sink.accepted(under: "/sink/kill-play").map { String(decoding: try Gzip.decompress($0.body), as: UTF8.self) }
        #expect(bodies.joined().contains("action=Start"), "the Start event survived the kill")
    }
}
