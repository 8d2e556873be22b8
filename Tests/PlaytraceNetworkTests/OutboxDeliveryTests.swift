import Foundation
import PlaytraceCore
import PlaytraceLab
import PlaytraceNetwork
import Testing

@Suite("Outbox delivery over HTTP to the lab's sink")
struct OutboxDeliveryTests {
    private func message(_ index: Int, port: Int) -> OutboxMessage {
        OutboxMessage(key: "batch-\(index)", destination: "sink", payload: Array("batch \(index)\n".utf8),
                      metadata: ["url": "http://127.0.0.1:\(port)/sink/reliability"])
    }

    @Test("A backend down for a while, then up: nothing is lost, nothing is delivered twice")
    func downThenUp() async throws {
        // A port below the kernel's ephemeral range: no other test's server, bound to port 0, can take it while this
        // backend is down.
        let port = try await Self.freePortOutsideEphemeralRange()
        let transport = AsyncHTTPClientTransport(clock: ContinuousClock())
        let outbox = try Outbox(path: nil, couriers: [HTTPCourier(name: "sink", transport: transport, timeout: .seconds(5))])
        for index in 0..<5 { try await outbox.persist(message(index, port: port)) }
        await outbox.flush()
        var statistics = try await outbox.statistics()
        // The first failure holds the destination back: a server that is down gets one request, not five.
        #expect(statistics.pending == 5 && statistics.retried == 1 && statistics.delivered == 0)

        let lab = LabServer(clock: ContinuousClock())
        _ = try await lab.start(port: port)
        await outbox.flush()
        statistics = try await outbox.statistics()
        #expect(statistics.pending == 0 && statistics.delivered == 5)
        let keys = lab.sink.accepted(under: "/sink/reliability").compactMap { $0.headers["idempotency-key"] }
        #expect(keys.sorted() == (0..<5).map { "batch-\($0)" })
        try await transport.shutdown()
        await lab.stop()
    }

    /// A port under the kernel's ephemeral range that nothing listens on now: the lab starts there and stops.
    private static func freePortOutsideEphemeralRange() async throws -> Int {
        let range = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        let low = range.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first.flatMap { Int($0) } ?? 32768
        var lastError: (any Error)?
        for _ in 0..<20 {
            let candidate = Int.random(in: 10_000..<max(10_001, low))
            let probe = LabServer(clock: ContinuousClock())
            do {
                let port = try await probe.start(port: candidate)
                await probe.stop()   // the port is free again: connections are refused
                return port
            } catch {
                lastError = error
            }
        }
        throw lastError ?? CancellationError()
    }

    @Test("A 400 for one batch: that batch is dropped and counted, the others are delivered")
    func oneRefusal() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        lab.faults.add(LabFault(pathContains: "/sink/", kind: .status(400), remaining: 1))
        let transport = AsyncHTTPClientTransport(clock: ContinuousClock())
        let outbox = try Outbox(path: nil, couriers: [HTTPCourier(name: "sink", transport: transport, timeout: .seconds(5))])
        for index in 0..<3 { try await outbox.persist(message(index, port: port)) }
        await outbox.flush()
        let statistics = try await outbox.statistics()
        #expect(statistics.rejected == 1 && statistics.delivered == 2 && statistics.pending == 0)
        #expect(lab.sink.accepted(under: "/sink/reliability").count == 2)
        try await transport.shutdown()
        await lab.stop()
    }

    @Test("HTTP 413: the batch is cut in halves, and halves again, each delivered on its own; one line still refused is dropped with the server's message")
    func tooLarge() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        // The first three requests are refused as too large: 8 lines → 4 → 2 → 1, then everything goes.
        lab.faults.add(LabFault(pathContains: "/sink/", kind: .status(413), remaining: 3))
        let transport = AsyncHTTPClientTransport(clock: ContinuousClock())
        let logs = LogCapture()
        let courier = HTTPCourier(name: "sink", transport: transport, timeout: .seconds(5), splitter: HTTPCourier.lineSplitter)
        let outbox = try Outbox(path: nil, couriers: [courier], logger: logs.logger)
        let lines = (0..<8).map { "m v=\($0)i\n" }.joined()
        var gzipped = OutboxMessage(key: "big", destination: "sink", payload: try Gzip.compress(Array(lines.utf8)),
                                    metadata: ["url": "http://127.0.0.1:\(port)/sink/split", "header.Content-Encoding": "gzip"])
        gzipped.metadata["method"] = "POST"
        try await outbox.persist(gzipped)
        var drain = await outbox.drain(within: .seconds(10))
        #expect(drain.pending == 0)
        let bodies = lab.sink.accepted(under: "/sink/split").map { String(decoding: try! Gzip.decompress($0.body), as: UTF8.self) }
        #expect(bodies.joined().split(separator: "\n").sorted() == lines.split(separator: "\n").sorted())
        #expect(bodies.count == 4, "the pieces delivered: 1 + 1 + 2 + 4 lines")
        var counts = await outbox.runCounts()["sink"]
        #expect(counts?.split == 3 && counts?.delivered == 4 && counts?.rejected == 0)

        // One line the server still refuses: dropped, counted, and said with the server's reason.
        lab.faults.add(LabFault(pathContains: "/sink/", kind: .status(413), remaining: 1))
        try await outbox.persist(OutboxMessage(key: "one", destination: "sink", payload: Array("m v=9i\n".utf8),
                                               metadata: ["url": "http://127.0.0.1:\(port)/sink/split"]))
        drain = await outbox.drain(within: .seconds(10))
        counts = await outbox.runCounts()["sink"]
        #expect(drain.pending == 0 && counts?.rejected == 1)
        #expect(logs.messages.contains { $0.contains("cannot be cut further") && $0.contains("HTTP 413") })
        try await transport.shutdown()
        await lab.stop()
    }
}
