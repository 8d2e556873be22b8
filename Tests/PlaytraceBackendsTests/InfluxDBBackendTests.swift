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
        // A safety net, not a measure: the server, just started, shares two cores with the whole suite.
        try await InfluxDBBackend.createDatabase(for: configuration, transport: server.transport, timeout: .seconds(30))
        try await InfluxDBBackend.createDatabase(for: configuration, transport: server.transport, timeout: .seconds(30))  // idempotent
        let databases = try await server.rows("SHOW DATABASES").compactMap { $0["name"] as? String }
        #expect(databases.contains(server.database))
        // A name InfluxDB refuses: the error carries the server's words.
        let empty = InfluxDBBackend.Configuration(url: server.url, api: .v1(database: ""))
        await #expect {
            try await InfluxDBBackend.createDatabase(for: empty, transport: server.transport, timeout: .seconds(30))
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

    /// What InfluxDB stores for a key or tag value the encoder wrote: line breaks become spaces, and a run of
    /// backslashes at the end or right before a comma, space or equals sign is left out (the line protocol cannot
    /// carry it); everything else as it was.
    static func storedTagText(_ text: String) -> String {
        let characters = Array(text.map { $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\r\n" ? " " : $0 })
        var stored = ""
        var index = 0
        while index < characters.count {
            guard characters[index] == "\\" else {
                stored.append(characters[index])
                index += 1
                continue
            }
            var end = index
            while end < characters.count, characters[end] == "\\" { end += 1 }
            if end < characters.count, ![",", " ", "="].contains(characters[end]) {
                stored += String(characters[index..<end])
            }
            index = end
        }
        return stored
    }

    @Test("Random tag keys, tag values, field keys and string fields read back from InfluxDB as written")
    func randomTextRoundTrip() async throws {
        let server = InfluxDBServer(url: try #require(InfluxDBServer.url))
        _ = try await server.query("CREATE DATABASE \(server.database)")
        var state: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let alphabet: [String] = ["a", "Z", "0", ",", " ", "=", "\"", "\\", "\\", "\n", "\t", "é", "😀", "'", "{", "#", "_", "-", "/"]
        func text(_ lengths: ClosedRange<Int>) -> String {
            (0..<(lengths.lowerBound + next(lengths.count))).map { _ in alphabet[next(alphabet.count)] }.joined()
        }
        // Keys start with a letter of their own, so that two never collide once stored and none is empty.
        let tagKeys = (0..<4).map { "t\($0)" + text(0...8) }
        let fieldKeys = (0..<4).map { "f\($0)" + text(0...8) }
        var encoder = LineProtocolEncoder()
        encoder.tagAttributes.formUnion(tagKeys.map { Attribute(name: $0) })
        var lines: [UInt8] = []
        var expected: [(tagKey: String, tag: String, fieldKey: String, field: String)] = []
        for index in 0..<300 {
            var event = Event(action: .start, date: StreamDate(secondsSince1970: 1_800_000_000 + Double(index)))
            let tagKey = tagKeys[next(tagKeys.count)]
            let fieldKey = fieldKeys[next(fieldKeys.count)]
            let tag = "v" + text(0...12)
            let field = text(0...24)
            event[Attribute(name: "n")] = .int(index)
            event[Attribute(name: tagKey)] = .string(tag)
            event[Attribute(name: fieldKey)] = .string(field)
            encoder.encode(event, timestamp: 1_800_000_000_000_000_000 + Int64(index) * 1_000_000_000, into: &lines)
            expected.append((Self.storedTagText(tagKey), Self.storedTagText(tag), Self.storedTagText(fieldKey), field))
        }
        var components = URLComponents(url: server.url.appendingPathComponent("write"), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "db", value: server.database), URLQueryItem(name: "precision", value: "ns")]
        let response = try await server.transport.send(HTTPRequest(method: "POST", url: try #require(components?.url), body: lines))
        #expect(response.status == 204, "InfluxDB: \(String(decoding: response.body, as: UTF8.self))")
        let rows = try await server.rows("SELECT * FROM events")
        #expect(rows.count == expected.count)
        for row in rows {
            guard let index = (row["n"] as? Double).map({ Int($0) }) ?? (row["n"] as? Int), expected.indices.contains(index)
            else { Issue.record("a row without its number: \(row)"); continue }
            let want = expected[index]
            #expect(row[want.tagKey] as? String == want.tag, "event \(index): tag \(want.tagKey.debugDescription)")
            #expect(row[want.fieldKey] as? String == want.field, "event \(index): field \(want.fieldKey.debugDescription)")
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
