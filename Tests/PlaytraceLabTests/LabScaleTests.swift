import Clocks
import Foundation
import PlaytraceCore
import PlaytraceLab
import PlaytraceNetwork
import Testing

/// The lab under a probe's load: what it makes once is shared and never stale, and its request log counts every
/// request while it keeps only the latest.
@Suite("The lab at scale", .serialized)
struct LabScaleTests {
    @Test("A live playlist and its Harmonic metadata, asked by many at once, are one document per update, and the next update's after it")
    func sharedAndNeverStale() async throws {
        let clock = TestClock<Duration>()
        let lab = LabServer(clock: clock, configuration: LabConfiguration(variants: LabConfiguration.loadLadder))
        let port = try await lab.start()
        let transport = AsyncHTTPClientTransport(clock: ContinuousClock(), connectionsPerHost: 64)
        let playlist = URL(string: "http://127.0.0.1:\(port)/live/1/index.m3u8")!
        let metadata = URL(string: "http://127.0.0.1:\(port)/ssai/harmonic/live/metadata?sessid=lab-1")!
        func bodies(_ url: URL) async throws -> Set<[UInt8]> {
            try await withThrowingTaskGroup(of: [UInt8].self) { group in
                for _ in 0..<64 { group.addTask { try await transport.send(HTTPRequest(url: url)).body } }
                return try await group.reduce(into: Set()) { $0.insert($1) }
            }
        }
        let first = try await bodies(playlist)
        let firstMetadata = try await bodies(metadata)
        #expect(first.count == 1 && firstMetadata.count == 1, "one document for everyone asking within an update")
        // One segment later the window has moved: the next document, not the one made before.
        await clock.advance(by: .seconds(LabConfiguration().segmentDuration))
        let next = try await bodies(playlist)
        #expect(next.count == 1 && next != first)
        let text = String(decoding: try #require(next.first), as: UTF8.self)
        let sequence = { (text: String) in text.split(separator: "\n").first { $0.hasPrefix("#EXT-X-MEDIA-SEQUENCE:") } }
        #expect(sequence(text) != sequence(String(decoding: try #require(first.first), as: UTF8.self)))
        #expect(try await bodies(metadata) != firstMetadata, "the metadata's window moved too")
        try await transport.shutdown()
        await lab.stop()
    }

    @Test("Synthetic segments are the same bytes for everyone, each naming its own path")
    func segmentsShared() async throws {
        let lab = LabServer(clock: ContinuousClock(), configuration: LabConfiguration(variants: LabConfiguration.loadLadder))
        let port = try await lab.start()
        let transport = AsyncHTTPClientTransport(clock: ContinuousClock())
        let one = try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/live/0/seg3.ts")!)).body
        let again = try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/live/0/seg3.ts")!)).body
        let other = try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/live/0/seg2.ts")!)).body
        #expect(one == again && one != other)
        #expect(String(decoding: one.prefix(40), as: UTF8.self).hasPrefix("PLAYTRACE-LAB /live/0/seg3.ts\n"))
        #expect(one.count == LabConfiguration.loadLadder[0].bandwidth * LabConfiguration().segmentDuration / 8)
        try await transport.shutdown()
        await lab.stop()
    }

    @Test("The request log keeps the latest requests and counts every one by kind, status and bytes")
    func logCountsEverything() async throws {
        let log = RequestLog(limit: 3)
        let paths = ["/live/master.m3u8", "/live/0/index.m3u8", "/live/0/seg1.ts", "/live/0/seg2.ts",
                     "/ssai/harmonic/live/metadata", "/beacons/harmonic/b/a/start", "/sink/influx", "/nowhere"]
        for (index, path) in paths.enumerated() {
            log.append(LabRequest(method: path.hasPrefix("/sink") ? "POST" : "GET", path: path, query: nil,
                                  status: index == 3 ? 404 : 200, bytes: 10, receivedAt: .zero, faults: [], idempotencyKey: nil))
        }
        #expect(log.all.map(\.path) == Array(paths.suffix(3)) && log.dropped == 5)
        let totals = log.totals
        #expect(totals.requests == 8 && totals.bytes == 80)
        #expect(totals.byKind["playlist"]?.requests == 2 && totals.byKind["segment"]?.statuses == ["200": 1, "404": 1])
        #expect(totals.byKind["metadata"]?.requests == 1 && totals.byKind["beacon"]?.requests == 1)
        #expect(totals.byKind["sink"]?.requests == 1 && totals.byKind["other"]?.requests == 1)
        #expect(log.document(last: 1).entries.map(\.path) == ["/nowhere"] && log.document(last: 1).totals == totals)
        log.clear()
        #expect(log.totals == LabRequestTotals() && log.all.isEmpty)
    }

    @Test("GET /lab/requests?last=N answers the latest N with every request's totals; a bad N is refused")
    func latestOverHTTP() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let transport = AsyncHTTPClientTransport(clock: ContinuousClock())
        for _ in 0..<3 { _ = try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/vod/master.m3u8")!)) }
        let answer = try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/lab/requests?last=2")!))
        let document = try JSONDecoder().decode(LabLogDocument<LabRequest>.self, from: Data(answer.body))
        #expect(document.entries.count == 2 && document.totals?.byKind["playlist"]?.requests == 3)
        let refused = try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/lab/requests?last=many")!))
        #expect(refused.status == 400)
        try await transport.shutdown()
        await lab.stop()
    }
}
