import Foundation
import PlaytraceBackends
import PlaytraceCore
import PlaytraceNetwork
import PlaytraceTelemetry
import PlaytraceTestSupport
import Testing

@Suite("InfluxDB backend, against the real server", .enabled(if: InfluxDBServer.url != nil))
struct InfluxDBBackendTests {
    @Test("A missing 1.x database is created before writing; a refusal is said clearly")
    func createsTheDatabase() async throws {
        let server = InfluxDBServer(url: try #require(InfluxDBServer.url))
        let configuration = InfluxDBBackend.Configuration(url: server.url, api: .v1(database: server.database))
        try await InfluxDBBackend.createDatabase(for: configuration, transport: server.transport)
        try await InfluxDBBackend.createDatabase(for: configuration, transport: server.transport)  // idempotent
        let databases = try await server.rows("SHOW DATABASES").compactMap { $0["name"] as? String }
        #expect(databases.contains(server.database))
        // A name InfluxDB refuses: the error carries the server's words.
        let empty = InfluxDBBackend.Configuration(url: server.url, api: .v1(database: ""))
        await #expect {
            try await InfluxDBBackend.createDatabase(for: empty, transport: server.transport)
        } throws: { error in
            "\(error)".hasPrefix("could not create the database \"\": ")
        }
        // Nothing listening: a typed error, not a hang.
        let closed = InfluxDBBackend.Configuration(url: URL(string: "http://127.0.0.1:9")!, api: .v1(database: "x"))
        await #expect(throws: InfluxDBBackend.DatabaseError.self) {
            try await InfluxDBBackend.createDatabase(for: closed, transport: server.transport)
        }
        _ = try await server.query("DROP DATABASE \(server.database)")
        try await server.transport.shutdown()
    }

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
