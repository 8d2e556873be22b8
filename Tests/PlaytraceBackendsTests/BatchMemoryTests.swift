import Foundation
import PlaytraceBackends
import PlaytraceCore
import PlaytraceNetwork
import PlaytraceTelemetry
import Testing

/// Keeps every payload it is given.
private final class RecordingCourier: OutboxCourier, Sendable {
    let name = InfluxDBBackend.destination
    private let payloads = Locked<[[UInt8]]>([])

    func deliver(_ message: OutboxMessage) async -> DeliveryOutcome {
        payloads.withLock { $0.append(message.payload) }
        return .delivered
    }

    var lines: [String] {
        payloads.withLock { payloads in
            payloads.flatMap { String(decoding: $0, as: UTF8.self).split(separator: "\n").map(String.init) }
        }
    }
}

/// A closed batch's memory goes back to the backend once the outbox has read it, and a later batch is written
/// into it: no batch may see another's bytes, whether it was read before the next one was written or after.
@Suite("InfluxDB backend: batch memory reused")
struct BatchMemoryTests {
    @Test("Batches written into the memory of earlier ones, read early or late, each arrive whole and once")
    func reusedMemory() async throws {
        let courier = RecordingCourier()
        let outbox = try Outbox(path: nil, couriers: [courier])
        var configuration = InfluxDBBackend.Configuration(url: URL(string: "http://127.0.0.1:1/")!,
                                                          api: .v1(database: "playtrace"))
        configuration.gzip = false
        configuration.maximumBatchPoints = 7
        let backend = InfluxDBBackend(configuration: configuration, outbox: outbox)
        var expected: [Int] = []
        for round in 0..<40 {
            // Batches of different sizes (7 points, and what a flush closes), so that a reused buffer holds the
            // tail of a longer batch past what the next one writes.
            for index in 0..<(3 + round % 11) {
                let value = round * 100 + index
                expected.append(value)
                backend.sendMetric(Metric(name: "Reuse", kind: .gauge, value: Double(value),
                                          date: StreamDate(secondsSince1970: 1_800_000_000 + Double(value))))
            }
            backend.flush()
            // Every other round, the outbox reads what was handed over before the next batch is written.
            if round.isMultiple(of: 2) { _ = await outbox.flush() }
        }
        let drain = await outbox.flush()
        #expect(drain.pending == 0 && drain.lost == 0)
        let values = courier.lines.map { line -> Int in
            let field = line.split(separator: " ")[1]  // value=1234
            return Int(Double(field.split(separator: "=")[1])!)
        }
        #expect(values == expected)
    }
}
