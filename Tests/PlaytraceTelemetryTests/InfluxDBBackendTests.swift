import Foundation
import PlaytraceBackends
import PlaytraceCore
import PlaytraceNetwork
import PlaytraceTelemetry
import PlaytraceTestSupport
import Testing

@Suite("InfluxDB backend, against the real server", .enabled(if: InfluxDBServer.url != nil))
struct InfluxDBBackendTests {
    @Test("A session's events and metrics reach InfluxDB with tags, typed fields and an error message intact")
    func session() async throws {
        let server = InfluxDBServer(url: try #require(InfluxDBServer.url))
        _ = try await server.query("CREATE DATABASE \(server.database)")
        let outbox = try Outbox(path: nil, couriers: [InfluxDBBackend.courier(transport: server.transport)])
        var configuration = InfluxDBBackend.Configuration(url: server.url, api: .v1(database: server.database))
        configuration.flushInterval = .seconds(3_600)   // batches only when Start, Error and End flush
        let influx = InfluxDBBackend(configuration: configuration, outbox: outbox)
        let harness = TelemetryHarness(hub: HubCore(pingInterval: .zero), metricalc: MetricalcCore(), backends: [influx])
        let dimensions: [(Attribute, AttributeValue)] = [(.sessionId, "viewer 1"), (.contentId, "urn:lab,1"), (.engine, "headless")]
        let message = "HTTP 500: \"upstream, failed\"\nretrying = no\\n"
        harness.emit(.mediaRequest, dimensions)
        await harness.advance(.milliseconds(640))
        harness.emit(.start, dimensions + [(.position, 0), (.bitrate, 1_500_000)])
        await harness.advance(.seconds(3))
        harness.emit(.error, dimensions + [(.errorDescription, .string(message)), (.isFatal, false)])
        await harness.advance(.seconds(2))
        harness.emit(.end, dimensions + [(.position, 5_000)])
        harness.instrument.shutdown()
        await outbox.flush()
        let statistics = try await outbox.statistics()
        #expect(statistics.delivered == 3 && statistics.pending == 0 && statistics.rejected == 0,
                "one batch each for Start, Error and End: \(statistics)")

        let events = try await server.rows("SELECT * FROM events")
        #expect(events.map { $0["action"] as? String } == ["MediaRequest", "Start", "Error", "End"])
        let error = try #require(events.first { ($0["action"] as? String) == "Error" })
        #expect(error["errorDescription"] as? String == message)
        #expect(error["contentId"] as? String == "urn:lab,1" && error["sessionId"] as? String == "viewer 1")
        let types = try await server.fieldTypes(of: "events")
        #expect(types["position"] == "integer" && types["accumPlayTime"] == "integer")
        #expect(types["isFatal"] == "boolean" && types["errorDescription"] == "string")
        let tags = try await server.rows("SHOW TAG KEYS FROM events").compactMap { $0["tagKey"] as? String }
        #expect(Set(tags) == ["action", "contentId", "engine", "playbackId", "sessionId"])
        let startTime = try await server.rows("SELECT value FROM StartTime GROUP BY contentId")
        #expect(startTime.first?["value"] as? Double == 640)
        let grouped = try await server.query("SELECT sum(value) FROM PlayTime GROUP BY sessionId")
        #expect("\(grouped)".contains("viewer 1"))
        try await server.transport.shutdown()
    }
}
