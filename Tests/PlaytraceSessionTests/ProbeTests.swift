import Foundation
import PlaytraceCore
import PlaytraceLab
import PlaytraceNetwork
import PlaytracePlayer
import Testing
@testable import PlaytraceSession

@Suite("Probe: a seeded population of viewers, split in shards, played together")
struct ProbeTests {
    @Test("The same seed makes the same viewers; shards split the population without overlap or gap")
    func population() {
        let whole = ProbePopulation(size: 10, seed: 7, ramp: .seconds(20), spread: MediaTime(seconds: 5))
        #expect(whole.shardSize == 10)
        #expect(whole.viewers == ProbePopulation(size: 10, seed: 7, ramp: .seconds(20), spread: MediaTime(seconds: 5)).viewers)
        #expect(Set(whole.viewers.map(\.id)).count == 10)
        #expect(whole.viewers.map(\.id) != ProbePopulation(size: 10, seed: 8).viewers.map(\.id))
        // Start offsets are evenly spread over the ramp, in the order of the viewers' places.
        #expect(whole.viewers.map(\.startOffset) == (0..<10).map { Duration.seconds(2) * $0 })
        #expect(whole.viewers.allSatisfy { $0.scriptShift >= .zero && $0.scriptShift < MediaTime(seconds: 5) })
        #expect(Set(whole.viewers.map(\.scriptShift)).count > 1)
        // Three shards: viewers 0, 3, 6, 9 / 1, 4, 7 / 2, 5, 8, each the very viewer of the whole population.
        var union: [ProbePopulation.Viewer] = []
        for index in 0..<3 {
            var shard = whole
            shard.shard = ProbePopulation.Shard(index: index, count: 3)
            #expect(shard.viewers.map(\.index) == Array(stride(from: index, to: 10, by: 3)))
            #expect(shard.shardSize == shard.viewers.count)
            union += shard.viewers
        }
        #expect(union.sorted { $0.index < $1.index } == whole.viewers)
        // More shards than viewers: the last ones run none.
        var sparse = ProbePopulation(size: 2, seed: 1)
        sparse.shard = ProbePopulation.Shard(index: 3, count: 4)
        #expect(sparse.viewers.isEmpty && sparse.shardSize == 0)
    }

    @Test("--shard reads I/N with I from 0 to N-1", arguments: [
        ("0/1", true), ("2/3", true), ("3/3", false), ("-1/2", false), ("1/0", false), ("1", false), ("a/b", false), ("1/2/3", false),
    ])
    func shardText(text: String, valid: Bool) {
        #expect((ProbePopulation.Shard(parsing: text) != nil) == valid)
    }

    @Test("Requests are counted by kind and outcome; a request its viewer gave up is not a failure")
    func requestOutcomes() async throws {
        let counter = ProbeRequestCounter()
        let transport = counter.counting(ScriptedTransport(), as: nil)
        for path in ["/a/master.m3u8", "/a/seg1.ts", "/missing/seg2.ts", "/slow/seg3.ts", "/gone/seg4.ts"] {
            let url = try #require(URL(string: "http://example.com" + path))
            _ = try? await transport.send(HTTPRequest(url: url))
        }
        let snapshot = counter.snapshot
        #expect(snapshot[.playlist] == ProbeRequestCounter.Counts(requests: 1, bytes: 3, outcomes: ["2xx": 1]))
        let segments = try #require(snapshot[.segment])
        #expect(segments.requests == 4 && segments.bytes == 3)
        #expect(segments.outcomes == ["2xx": 1, "404": 1, "timeout": 1, "cancelled": 1])
        #expect(segments.failed == 2)
    }

    @Test("Ten viewers of the lab's on-demand stream, started over a ramp: each plays, each is counted once")
    @MainActor
    func tenViewers() async throws {
        let clock = ScaledClock(speed: 4)
        let lab = LabServer(clock: clock)
        let port = try await lab.start()
        let transport = AsyncHTTPClientTransport(clock: clock, connectionsPerHost: 10)
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/vod/master.m3u8"))
        let population = ProbePopulation(size: 10, seed: 3, ramp: .seconds(4))
        let requests = ProbeRequestCounter()
        let outbox = try SessionOutbox(path: nil, couriers: [], transport: transport)
        var configuration = Probe.Configuration(url: url, population: population, duration: .seconds(12), outbox: outbox,
                                                requests: requests)
        configuration.sessionTick = .seconds(1)
        // What is counted is checked here, not how fast: a loaded machine may stall a viewer of a 4x clock.
        configuration.bounds.startupP99 = .seconds(600)
        configuration.accepted = [ProbeVerdict.Shortfall(.stalled)]
        let probe = Probe(configuration: configuration, clock: clock, transport: transport)
        let result = await probe.run()
        let aggregate = result.aggregate
        try? await transport.shutdown()
        await lab.stop()
        #expect(aggregate.planned == 10 && aggregate.started == 10 && aggregate.ended == 10)
        #expect(aggregate.failed == 0)
        #expect(aggregate.startup.count == 10)
        let median = try #require(aggregate.startup.percentile(50))
        // Within the viewer's run (12 s of the 4x clock): a loaded machine (the suite's other stages beside) slows
        // the 4x clock's startups to seconds of it.
        #expect(median > .zero && median < .seconds(12), "startup p50 \(median)")
        let playlists = try #require(result.requests[.playlist]), segments = try #require(result.requests[.segment])
        // No origin error; on a loaded machine a request of the 4x clock may time out, one in flight at the end (a
        // variant switch's playlist as well as a segment) is given up.
        #expect((playlists.outcomes["2xx"] ?? 0) >= 20, "\(playlists.outcomes)")
        #expect(Set(playlists.outcomes.keys).isSubset(of: ["2xx", "timeout", "cancelled"]), "\(playlists.outcomes)")
        #expect((segments.outcomes["2xx"] ?? 0) >= 10 && segments.bytes > 0, "\(segments.outcomes)")
        #expect(Set(segments.outcomes.keys).isSubset(of: ["2xx", "timeout", "cancelled"]), "\(segments.outcomes)")
        #expect(result.verdict.succeeded, "\(result.verdict.findings)")
        #expect(aggregate.playedSeconds > 10 * 2)
    }
}

/// Answers by the path: `/missing` 404, `/slow` a timeout, `/gone` a cancellation, anything else 200 with three bytes.
private struct ScriptedTransport: HTTPTransport {
    func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
        let path = request.url.path
        if path.hasPrefix("/slow") { throw .timeout }
        if path.hasPrefix("/gone") { throw .cancelled }
        let status = path.hasPrefix("/missing") ? 404 : 200
        return HTTPResponse(status: status, headers: [], body: status == 200 ? [1, 2, 3] : [], url: request.url,
                            timing: RequestTiming(timeToFirstByte: .zero, duration: .zero))
    }
}
