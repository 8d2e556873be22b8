import Foundation
import PlaytraceBackends
import PlaytraceCore
import PlaytraceTelemetry
import PlaytraceTestSupport
import Testing

@Suite("JSON lines and console backends")
struct FileBackendTests {
    @Test("The file is put in place whole at the end of service: what it held, then the session's lines; never torn before")
    func jsonLinesWholeAtTheEnd() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("whole-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("{\"earlier\":true}\n".utf8).write(to: URL(fileURLWithPath: path))
        let backend = try JSONLinesBackend(path: path)
        let harness = TelemetryHarness(hub: HubCore(pingInterval: .zero), metricalc: MetricalcCore(), backends: [backend])
        harness.emit(.mediaRequest, [(.contentId, "urn:1")])
        await harness.advance(.seconds(3))   // past several flushes: written to the draft, not to the file
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{\"earlier\":true}\n")
        harness.instrument.shutdown()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "{\"earlier\":true}" && lines.count > 1)
        #expect(lines.dropFirst().allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil })
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let name = URL(fileURLWithPath: path).lastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".\(name).") }.isEmpty,
                "no draft left beside it")
    }

    @Test("Every event and metric is one JSON object per line, with typed values and escaped strings")
    func jsonLines() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("session-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let backend = try JSONLinesBackend(path: path)
        let harness = TelemetryHarness(hub: HubCore(pingInterval: .zero), metricalc: MetricalcCore(), backends: [backend])
        harness.emit(.mediaRequest, [(.contentId, "urn:1")])
        await harness.advance(.milliseconds(250))
        harness.emit(.start, [(.contentId, "urn:1"), (.bitrate, 1.5e6)])
        harness.emit(.error, [(.errorDescription, "a \"quoted\"\nmessage\u{1}"), (.isFatal, false)])
        harness.instrument.shutdown()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        let objects = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let events = objects.filter { $0["type"] as? String == "event" }
        #expect(events.map { $0["action"] as? String } == ["MediaRequest", "Start", "Error"])
        let error = try #require(events.last?["attributes"] as? [String: Any])
        #expect(error["errorDescription"] as? String == "a \"quoted\"\nmessage\u{1}")
        #expect(error["isFatal"] as? Bool == false)
        let start = try #require(events[1]["attributes"] as? [String: Any])
        #expect(start["bitrate"] as? Double == 1.5e6 && start["countStarts"] as? Int == 1)
        let startTime = try #require(objects.first { $0["name"] as? String == "StartTime" })
        #expect(startTime["value"] as? Double == 250 && startTime["kind"] as? String == "gauge")
        #expect((startTime["dimensions"] as? [String: Any])?["contentId"] as? String == "urn:1")
        #expect(events.first?["date"] as? String == "2027-01-15T08:00:00.000Z")
    }

    @Test("The console backend writes a line per event and metric")
    func console() {
        let lines = Locked<[String]>([])
        let console = ConsoleBackend { line in lines.withLock { $0.append(line) } }
        let harness = TelemetryHarness(hub: HubCore(pingInterval: .zero), metricalc: MetricalcCore(), backends: [console])
        harness.emit(.mediaRequest)
        harness.emit(.start)
        let written = lines.withLock { $0 }
        #expect(written.contains { $0.hasPrefix("event  Start ") && $0.contains("countStarts=1") })
        #expect(written.contains { $0.hasPrefix("metric StartTime ") && $0.contains("0 (gauge)") })
    }
}
