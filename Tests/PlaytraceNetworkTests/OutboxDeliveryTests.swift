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
        let first = LabServer(clock: ContinuousClock())
        let port = try await first.start()
        await first.stop()   // the port is free again: connections are refused
        let transport = AsyncHTTPClientTransport(clock: ContinuousClock())
        let outbox = try Outbox(path: nil, couriers: [HTTPCourier(name: "sink", transport: transport, timeout: .seconds(5))])
        for index in 0..<5 { try outbox.enqueue(message(index, port: port)) }
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

    @Test("A 400 for one batch: that batch is dropped and counted, the others are delivered")
    func oneRefusal() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        lab.faults.add(LabFault(pathContains: "/sink/", kind: .status(400), remaining: 1))
        let transport = AsyncHTTPClientTransport(clock: ContinuousClock())
        let outbox = try Outbox(path: nil, couriers: [HTTPCourier(name: "sink", transport: transport, timeout: .seconds(5))])
        for index in 0..<3 { try outbox.enqueue(message(index, port: port)) }
        await outbox.flush()
        let statistics = try await outbox.statistics()
        #expect(statistics.rejected == 1 && statistics.delivered == 2 && statistics.pending == 0)
        #expect(lab.sink.accepted(under: "/sink/reliability").count == 2)
        try await transport.shutdown()
        await lab.stop()
    }
}
