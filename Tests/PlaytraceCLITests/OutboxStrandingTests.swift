import Foundation
import PlaytraceLab
import PlaytraceNetwork
import PlaytraceTestSupport
import Testing

/// Nothing stranded, nothing silently gone: what an earlier run left in an outbox file goes out with `outbox
/// --deliver` or the next `play`, and a file taken away under a running `play` fails it, said.
@Suite("Outbox files: nothing stranded, nothing silently gone", .serialized)
struct OutboxStrandingTests {
    private static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// An outbox file as an earlier run leaves it: beacons (one to `failing`, when given) and an InfluxDB batch,
    /// all to the lab on `port`.
    private static func earlierRun(_ path: String, port: Int, failing: Bool = false) async throws {
        let outbox = try Outbox(path: path, couriers: [])
        let base = "http://127.0.0.1:\(port)"
        try await outbox.persist(OutboxMessage(key: "beacon:old:p/a/start@0/0", destination: "ad-beacons", payload: [],
                                               metadata: ["url": "\(base)/beacons/old/a/start"], remembersKey: true))
        try await outbox.persist(OutboxMessage(key: "beacon:old:p/a/complete@0/0", destination: "ad-beacons", payload: [],
                                               metadata: ["url": "\(base)/beacons/old/a/\(failing ? "failing" : "complete")"],
                                               remembersKey: true))
        try await outbox.persist(OutboxMessage(key: "batch-1", destination: "influxdb", payload: Array("m v=1i\n".utf8),
                                               metadata: ["url": "\(base)/sink/influx/write?db=x"]))
    }

    @Test("outbox --deliver sends waiting beacons as it does batches, and exits 1 while anything still waits")
    func deliverBeacons() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let path = CLITests.temporaryPath("stranded.sqlite")
        defer { Self.remove(path) }
        try await Self.earlierRun(path, port: port)
        let delivered = try await CLITests.run(["outbox", path, "--deliver"])
        #expect(delivered.status == 0, "\(delivered.output) \(delivered.error)")
        #expect(delivered.output.contains("delivered 3, refused 0; 0 waiting"), "\(delivered.output)")
        // (A set: on a machine loaded enough for a request to outlast its 5 s deadline, the retry is a second hit.)
        #expect(Set(lab.beacons.accepted().map(\.path)) == ["/beacons/old/a/complete", "/beacons/old/a/start"])
        #expect(lab.sink.accepted(under: "/sink/influx").count == 1)

        Self.remove(path)
        try await Self.earlierRun(path, port: port, failing: true)
        lab.faults.add(LabFault(pathContains: "/failing", kind: .status(503), remaining: 1_000))
        let waiting = try await CLITests.run(["outbox", path, "--deliver", "--timeout", "2"])
        #expect(waiting.status == 1, "\(waiting.output) \(waiting.error)")
        #expect(waiting.output.contains("1 waiting") && waiting.output.contains("ad-beacons  1 waiting"), "\(waiting.output)")
        await lab.stop()
    }

    @Test("A later play with the same outbox delivers what earlier runs left, of any kind, once")
    func laterPlayDelivers() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let path = CLITests.temporaryPath("stranded-play.sqlite")
        defer { Self.remove(path) }
        try await Self.earlierRun(path, port: port)
        let arguments = ["play", "http://127.0.0.1:\(port)/vod/master.m3u8", "--outbox", path, "--script", "at 2 stop"]
        let first = try await CLITests.run(arguments)
        #expect(first.status == 0, "\(first.output) \(first.error)")
        #expect(first.output.contains("3 message(s) left by earlier runs delivered"), "\(first.output)")
        let second = try await CLITests.run(arguments)
        #expect(second.status == 0 && !second.output.contains("left by earlier runs"), "\(second.output)")
        #expect(lab.beacons.accepted().count == 2 && lab.sink.accepted(under: "/sink/influx").count == 1, "once")
        await lab.stop()
    }

    /// Wall time, for a reason: the file is deleted while a real process plays.
    @Test("The outbox file deleted while play runs: said in the summary, the verdict fails, never 'waiting in FILE'")
    func fileDeletedDuringPlay() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let path = CLITests.temporaryPath("deleted.sqlite")
        defer { Self.remove(path) }
        // A beacon host that keeps failing leaves something in the file at exit.
        lab.faults.add(LabFault(pathContains: "/beacons/", kind: .status(503), remaining: 10_000))
        let process = Process()
        process.executableURL = CLITests.executable
        process.arguments = ["play", "http://127.0.0.1:\(port)/ssai/harmonic/vod/master.m3u8", "--ads", "harmonic",
                             "--outbox", path, "--script", "at 12 stop", "--beacon-wait", "1", "--drain-timeout", "1"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = ContinuousClock.now + .seconds(30)
        while !lab.beacons.all.contains(where: { $0.path.hasSuffix("/impression") }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        try FileManager.default.removeItem(atPath: path)
        let text = await output.fileHandleForReading.readText()
        await process.ended()
        await lab.stop()
        #expect(process.terminationStatus == 1)
        #expect(text.contains("the outbox file \(path) was deleted while in use: what it held is lost"), "\(text)")
        #expect(!text.contains("kept in \(path)") && !text.contains("waiting in \(path)"), "\(text)")
        #expect(text.contains("verdict: FAILED"), "\(text)")
    }

    /// Wall time, for a reason: a real process against a database check that takes 3 s.
    @Test("A slow InfluxDB database check does not delay playback; the batches wait for it")
    func slowDatabaseCheck() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        lab.faults.add(LabFault(pathContains: "/sink/influx/query", kind: .delay(milliseconds: 3_000)))
        let run = try await CLITests.run(["play", "http://127.0.0.1:\(port)/vod/master.m3u8", "--influx",
                                          "http://127.0.0.1:\(port)/sink/influx", "--script", "at 5 stop"])
        await lab.stop()
        #expect(run.status == 0, "\(run.output) \(run.error)")
        let requests = lab.requests.all
        let check = try #require(requests.first { $0.path.hasPrefix("/sink/influx/query") }?.receivedAt)
        let master = try #require(requests.first { $0.path == "/vod/master.m3u8" }?.receivedAt)
        let firstWrite = try #require(requests.first { $0.path.hasPrefix("/sink/influx/write") }?.receivedAt)
        #expect(master < check + .seconds(1), "playback began while the check ran")
        #expect(firstWrite >= check + .milliseconds(2_900), "the first batch waited for the check")
    }
}
