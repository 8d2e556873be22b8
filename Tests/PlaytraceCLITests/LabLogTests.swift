import Foundation
import PlaytraceCore
import PlaytraceLab
import PlaytraceNetwork
import PlaytraceTestSupport
import Testing

/// The lab's logs as scripts read them: data that follows their schemas, with a version and their bound.
@Suite("The lab's request and beacon logs")
struct LabLogTests {
    @Test("GET /lab/requests and /lab/beacons: versioned, each arrival in seconds, a dropped connection's status 0")
    func logsFollowTheirSchemas() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let base = "http://127.0.0.1:\(port)"
        let transport = AsyncHTTPClientTransport()
        do {
            lab.faults.add(LabFault(pathContains: "/beacons/p/a/start", kind: .dropConnection, remaining: 1))
            _ = try await transport.send(HTTPRequest(url: URL(string: "\(base)/vod/1/index.m3u8")!))
            _ = try await transport.send(HTTPRequest(url: URL(string: "\(base)/beacons/p/a/impression?cb=1")!))
            _ = try? await transport.send(HTTPRequest(url: URL(string: "\(base)/beacons/p/a/start")!))
            for (path, schema) in [("lab/requests", "lab-request-log"), ("lab/beacons", "lab-beacon-log")] {
                let response = try await transport.send(HTTPRequest(url: URL(string: "\(base)/\(path)")!))
                let text = String(decoding: response.body, as: UTF8.self)
                let errors = try await JSONSchemaCheck.errors(inText: text, schema: schema)
                #expect(errors.isEmpty, "\(path) conforms to schemas/\(schema).schema.json: \(errors)")
            }
            let requests = try await transport.send(HTTPRequest(url: URL(string: "\(base)/lab/requests")!))
            let log = try JSONDecoder().decode(LabLogDocument<LabRequest>.self, from: Data(requests.body))
            #expect(log.schemaVersion == 1 && log.limit == 100_000 && log.dropped == 0)
            let playlist = try #require(log.entries.first { $0.path == "/vod/1/index.m3u8" })
            #expect(playlist.status == 200 && playlist.bytes > 0 && playlist.receivedAt > .zero)
            #expect(log.entries.first { $0.path == "/beacons/p/a/start" }?.faults.count == 1)
            let beacons = try await transport.send(HTTPRequest(url: URL(string: "\(base)/lab/beacons")!))
            let hits = try JSONDecoder().decode(LabLogDocument<BeaconHit>.self, from: Data(beacons.body)).entries
            #expect(hits.map(\.path) == ["/beacons/p/a/impression", "/beacons/p/a/start"])
            #expect(hits.map(\.status) == [200, 0] && hits.first?.query == "cb=1")
            // Seconds as a number, not Swift's encoding of a Duration.
            let raw = try #require(try JSONSerialization.jsonObject(with: Data(beacons.body)) as? [String: Any])
            #expect(((raw["entries"] as? [[String: Any]])?.first?["receivedAtSeconds"] as? Double ?? 0) > 0)
        } catch {
            try? await transport.shutdown()
            await lab.stop()
            throw error
        }
        try await transport.shutdown()
        await lab.stop()
    }

    @Test("A log past its limit keeps the newest entries and counts what it dropped, until cleared")
    func boundedLogCountsWhatItDrops() {
        let log = BeaconLog(limit: 2)
        for index in 0..<5 { log.append(BeaconHit(path: "/beacons/\(index)", query: nil, receivedAt: .seconds(index), status: 200)) }
        #expect(log.document.entries.map(\.path) == ["/beacons/3", "/beacons/4"])
        #expect(log.document.dropped == 3 && log.dropped == 3 && log.document.limit == 2)
        log.clear()
        #expect(log.document.entries.isEmpty && log.dropped == 0)
    }
}
