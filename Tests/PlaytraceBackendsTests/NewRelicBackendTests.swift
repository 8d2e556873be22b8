import Foundation
import PlaytraceBackends
import PlaytraceCore
import PlaytraceLab
import PlaytraceNetwork
import PlaytraceTelemetry
import PlaytraceTestSupport
import Testing

@Suite("New Relic backend, against a loopback receiver that decodes the documented formats")
struct NewRelicBackendTests {
    private func decode(_ delivery: SinkDelivery) throws -> Any {
        #expect(delivery.headers["content-encoding"] == "gzip")
        #expect(delivery.headers["api-key"] == "secret-key")
        #expect(delivery.headers["content-type"] == "application/json")
        #expect(delivery.headers["idempotency-key"] != nil)
        return try JSONSerialization.jsonObject(with: Data(try Gzip.decompress(delivery.body)))
    }

    @Test("Events to the Event API and metrics to the Metric API; a 500 is retried and nothing is lost")
    func delivery() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let transport = AsyncHTTPClientTransport(clock: ContinuousClock())
        var configuration = NewRelicBackend.Configuration(accountID: "42", apiKey: "secret-key")
        configuration.eventsURL = URL(string: "http://127.0.0.1:\(port)/sink/newrelic/events")
        configuration.metricsURL = URL(string: "http://127.0.0.1:\(port)/sink/newrelic/metrics")
        // The key is the courier's (attached at delivery), never stored with a batch.
        let outbox = try Outbox(path: nil, couriers: [NewRelicBackend.courier(transport: transport, configuration: configuration)])
        configuration.flushInterval = .seconds(3_600)
        let newRelic = NewRelicBackend(configuration: configuration, outbox: outbox)
        let harness = TelemetryHarness(hub: HubCore(pingInterval: .zero), metricalc: MetricalcCore(), backends: [newRelic])
        lab.faults.add(LabFault(pathContains: "/sink/newrelic/metrics", kind: .status(500), remaining: 1))
        harness.emit(.mediaRequest, [(.contentId, "urn:1")])
        await harness.advance(.milliseconds(300))
        harness.emit(.start, [(.contentId, "urn:1"), (.title, .string(String(repeating: "x", count: 5_000)))])
        harness.emit(.end, [(.contentId, "urn:1")])
        harness.instrument.shutdown()
        // Start and End hand their batches over at once: events, metrics, events, metrics. The first metrics batch
        // gets a 500 and stays; the destination then waits for its backoff, so the two batches after it wait too.
        await outbox.flush()
        #expect(try await outbox.statistics().pending == 3)
        await outbox.flush()   // retried: delivered
        let statistics = try await outbox.statistics()
        #expect(statistics.delivered == 4 && statistics.pending == 0 && statistics.retried == 1)

        let eventDeliveries = lab.sink.accepted(under: "/sink/newrelic/events")
        #expect(eventDeliveries.count == 2)
        let events = try eventDeliveries.flatMap { try #require(try decode($0) as? [[String: Any]]) }
        #expect(events.map { $0["action"] as? String } == ["MediaRequest", "Start", "End"])
        for event in events {
            #expect(event["eventType"] as? String == "PlaytraceEvent")
            #expect((event["timestamp"] as? Int).map { $0 > 1_700_000_000_000 } == true, "milliseconds since 1970")
            #expect(event.count <= 255)
        }
        #expect((events[1]["title"] as? String)?.count == 4_096, "values are cut at 4,096 characters")

        let metricDeliveries = lab.sink.accepted(under: "/sink/newrelic/metrics")
        #expect(metricDeliveries.count == 2)
        let metrics = try metricDeliveries.flatMap { delivery in
            let blocks = try #require(try decode(delivery) as? [[String: Any]])
            return try #require(blocks.first?["metrics"] as? [[String: Any]])
        }
        for metric in metrics {
            let type = try #require(metric["type"] as? String)
            #expect(["gauge", "count", "summary"].contains(type))
            #expect(metric["name"] as? String != nil && metric["timestamp"] as? Int != nil)
            if type != "gauge" { #expect(metric["interval.ms"] as? Int == 1) }
        }
        let startTime = try #require(metrics.first { $0["name"] as? String == "playtrace.StartTime" })
        #expect(startTime["value"] as? Double == 300)
        #expect((startTime["attributes"] as? [String: Any])?["contentId"] as? String == "urn:1")
        #expect(metrics.contains { $0["name"] as? String == "playtrace.NumPlays" && $0["type"] as? String == "count" })
        try await transport.shutdown()
        await lab.stop()
    }
}
