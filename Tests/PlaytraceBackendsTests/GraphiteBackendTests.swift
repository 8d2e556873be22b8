import Foundation
import PlaytraceBackends
import PlaytraceCore
import PlaytraceNetwork
import PlaytraceTelemetry
import PlaytraceTestSupport
import Testing

/// The carbon-cache that `scripts/test` started on loopback, and its whisper files.
struct GraphiteServer {
    static var address: (host: String, port: Int)? {
        guard let text = ProcessInfo.processInfo.environment["PLAYTRACE_GRAPHITE_ADDRESS"],
              let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...])
        else { return nil }
        return (String(text[..<colon]), port)
    }

    static var whisperDirectory: String? { ProcessInfo.processInfo.environment["PLAYTRACE_GRAPHITE_WHISPER_DIR"] }

    /// The non-empty points of a metric path, as (seconds, value); waits for carbon to write them (carbon is a
    /// process of its own that writes on its own schedule: this is real time, a few seconds at most).
    static func points(_ path: String, from: Int64, expecting count: Int) async throws -> [(Int64, Double)] {
        let file = (whisperDirectory ?? "") + "/" + path.replacingOccurrences(of: ".", with: "/") + ".wsp"
        var points: [(Int64, Double)] = []
        for _ in 0..<100 {
            if FileManager.default.fileExists(atPath: file) {
                points = try await fetch(file, from: from)
                if points.count >= count { return points }
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        return points
    }

    private static func fetch(_ file: String, from: Int64) async throws -> [(Int64, Double)] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/whisper-fetch")
        process.arguments = ["--from=\(from)", file]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = await output.fileHandleForReading.readText()
        await process.ended()
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "\t")
            guard parts.count == 2, let seconds = Int64(parts[0]), let value = Double(parts[1]) else { return nil }
            return (seconds, value)
        }
    }
}

@Suite("Graphite backend, against the real carbon", .enabled(if: GraphiteServer.address != nil))
struct GraphiteBackendTests {
    @Test("Metrics and event counts reach whisper files; counters of one second add up instead of colliding")
    func session() async throws {
        let address = try #require(GraphiteServer.address)
        let content = "urn:test:\(UUID().uuidString.prefix(8))"
        let now = Date().timeIntervalSince1970.rounded(.down) - 30
        let courier = GraphiteBackend.courier(host: address.host, port: address.port)
        let outbox = try Outbox(path: nil, couriers: [courier])
        let graphite = GraphiteBackend(outbox: outbox)
        let harness = TelemetryHarness(hub: HubCore(pingInterval: .zero), metricalc: MetricalcCore(),
                                       backends: [graphite], origin: StreamDate(secondsSince1970: now))
        let dimensions: [(Attribute, AttributeValue)] = [(.contentId, .string(content)), (.engine, "headless")]
        harness.emit(.mediaRequest, dimensions)
        await harness.advance(.milliseconds(500))
        harness.emit(.start, dimensions)
        for _ in 0..<3 { harness.emit(.qualityChangeUp, dimensions) }   // three events in the same second
        await harness.advance(.seconds(2))
        harness.emit(.end, dimensions)
        harness.instrument.shutdown()
        await outbox.flush()
        #expect(try await outbox.statistics().delivered == 1)

        let base = "playtrace.headless." + GraphiteBackend.sanitize(content)
        let switches = try await GraphiteServer.points(base + ".events.QualityChangeUp", from: Int64(now) - 5, expecting: 1)
        #expect(switches.map { $0.1 } == [3], "three events in one second are one point of 3")
        let startTime = try await GraphiteServer.points(base + ".StartTime", from: Int64(now) - 5, expecting: 1)
        #expect(startTime.map { $0.1 } == [500])
        #expect(startTime.first?.0 == Int64(now), "the point is at the event's second")
        let plays = try await GraphiteServer.points(base + ".NumPlays", from: Int64(now) - 5, expecting: 1)
        #expect(plays.map { $0.1 } == [1])
        await courier.close()
    }
}
