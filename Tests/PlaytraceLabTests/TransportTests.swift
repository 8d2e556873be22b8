import Foundation
import PlaytraceCore
import PlaytraceLab
import PlaytraceNetwork
import Testing

/// The async-http-client transport against the lab: statuses are responses, failures are typed.
/// These tests use the real clock: deadlines are wall-clock by nature (they bound real sockets).
@Suite("HTTP transport", .serialized)
struct TransportTests {
    static func withLab(clock: any Clock<Duration> = ContinuousClock(),
                        _ body: (LabServer, URL, AsyncHTTPClientTransport) async throws -> Void) async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let transport = AsyncHTTPClientTransport(clock: clock)
        do {
            try await body(lab, URL(string: "http://127.0.0.1:\(port)")!, transport)
        } catch {
            try? await transport.shutdown()
            await lab.stop()
            throw error
        }
        try? await transport.shutdown()
        await lab.stop()
    }

    @Test func aResponseCarriesBodyStatusHeadersAndTimings() async throws {
        try await Self.withLab { _, base, transport in
            let response = try await transport.send(HTTPRequest(url: base.appendingPathComponent("vod/master.m3u8")))
            #expect(response.status == 200 && response.isSuccess)
            #expect(String(decoding: response.body, as: UTF8.self).hasPrefix("#EXTM3U"))
            #expect(response.header("content-type") == "application/vnd.apple.mpegurl")
            #expect(response.timing.duration >= response.timing.timeToFirstByte)
            let missing = try await transport.send(HTTPRequest(url: base.appendingPathComponent("nothing")))
            #expect(missing.status == 404 && !missing.isSuccess)
        }
    }

    @Test func aBodyThatTricklesIsCutAtTheRequestsDeadline() async throws {
        try await Self.withLab { lab, base, transport in
            // 200 bytes a second: the segment would take minutes; the whole request has one second.
            lab.faults.add(LabFault(pathContains: "/vod/0/seg0.ts", kind: .throttle(bytesPerSecond: 200)))
            let clock = ContinuousClock()
            let started = clock.now
            await #expect(throws: HTTPTransportError.timeout) {
                try await transport.send(HTTPRequest(url: base.appendingPathComponent("vod/0/seg0.ts"), timeout: .seconds(1)))
            }
            #expect(clock.now - started < .seconds(10))
        }
    }

    @Test func aCoalescedClockKeepsTheRealDeadline() async throws {
        // The probe's transport sleeps its deadlines on the shared timer: a trickling body is cut all the same, and a
        // request that answers leaves no sleeper behind.
        let coalesced = CoalescedClock(granularity: .milliseconds(10))
        try await Self.withLab(clock: coalesced) { lab, base, transport in
            lab.faults.add(LabFault(pathContains: "/vod/0/seg0.ts", kind: .throttle(bytesPerSecond: 200)))
            let clock = ContinuousClock()
            let started = clock.now
            await #expect(throws: HTTPTransportError.timeout) {
                try await transport.send(HTTPRequest(url: base.appendingPathComponent("vod/0/seg0.ts"), timeout: .seconds(1)))
            }
            let elapsed = clock.now - started
            #expect(elapsed >= .seconds(1) && elapsed < .seconds(10))
            // The deadline was the shared timer's (nothing else sleeps on this clock).
            let wakeUps = coalesced.wakeUps
            #expect(wakeUps >= 1)
            // Deadlines far beyond the answers, even with the machine busy (at 300 ms, an answer under the whole
            // suite's load came close enough to its deadline that the timer fired before the cancellation landed).
            for _ in 0..<20 {
                let response = try await transport.send(HTTPRequest(url: base.appendingPathComponent("vod/master.m3u8"),
                                                                    timeout: .seconds(2)))
                #expect(response.isSuccess)
            }
            // Twenty deadlines 2 s out, all cancelled by their answers: the shared timer does not wake for them.
            try await Task.sleep(for: .milliseconds(2_500))
            #expect(coalesced.wakeUps - wakeUps <= 1)
        }
    }

    @Test func aPortOutOfRangeIsAnInvalidURLNotACrash() async throws {
        try await Self.withLab { _, _, transport in
            let url = try #require(URL(string: "http://127.0.0.1:99999/x.m3u8"))
            await #expect(throws: HTTPTransportError.invalidURL(url.absoluteString)) {
                try await transport.send(HTTPRequest(url: url))
            }
        }
    }

    @Test func failuresAreTyped() async throws {
        try await Self.withLab { lab, base, transport in
            lab.faults.add(LabFault(pathContains: "/vod/2/seg1.ts", kind: .dropConnection))
            lab.faults.add(LabFault(pathContains: "/vod/0/index.m3u8", kind: .delay(milliseconds: 3000)))
            let segment = base.appendingPathComponent("vod/2/seg0.ts")
            await #expect(throws: HTTPTransportError.connectionClosed) {
                _ = try await transport.send(HTTPRequest(url: base.appendingPathComponent("vod/2/seg1.ts")))
            }
            await #expect(throws: HTTPTransportError.timeout) {
                _ = try await transport.send(HTTPRequest(url: base.appendingPathComponent("vod/0/index.m3u8"), timeout: .milliseconds(300)))
            }
            await #expect(throws: HTTPTransportError.bodyTooLarge(limit: 1000)) {
                _ = try await transport.send(HTTPRequest(url: segment, maximumBodySize: 1000))
            }
            await #expect(throws: HTTPTransportError.invalidURL("ftp://example.com/a")) {
                _ = try await transport.send(HTTPRequest(url: URL(string: "ftp://example.com/a")!))
            }
        }
    }

    @Test func aRefusedConnectionFailsAtOnce() async throws {
        let transport = AsyncHTTPClientTransport()
        let started = ContinuousClock.now
        await #expect {
            _ = try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:9/")!, timeout: .seconds(30)))
        } throws: { error in
            if case HTTPTransportError.connect = error { return true }
            return false
        }
        #expect(ContinuousClock.now - started < .seconds(5), "not retried until the deadline")
        try await transport.shutdown()
    }

    @Test func labFaultsAreSetThroughItsAPI() async throws {
        try await Self.withLab { lab, base, transport in
            var request = HTTPRequest(method: "POST", url: base.appendingPathComponent("lab/faults"),
                                      headers: [("content-type", "application/json")])
            request.body = Array(#"{"path": "/vod/1/", "type": "status", "value": 503, "count": 2}"#.utf8)
            #expect(try await transport.send(request).status == 201)
            let url = base.appendingPathComponent("vod/1/index.m3u8")
            #expect(try await transport.send(HTTPRequest(url: url)).status == 503)
            #expect(try await transport.send(HTTPRequest(url: url)).status == 503)
            #expect(try await transport.send(HTTPRequest(url: url)).status == 200, "the fault was used up")
            request.body = Array(#"{"type": "explode"}"#.utf8)
            #expect(try await transport.send(request).status == 400)
            let log = try await transport.send(HTTPRequest(url: base.appendingPathComponent("lab/requests")))
            let entries = try JSONDecoder().decode(LabLogDocument<LabRequest>.self, from: Data(log.body)).entries
            #expect(entries.filter { $0.path == "/vod/1/index.m3u8" }.map(\.status) == [503, 503, 200])
            #expect(lab.requests.matching("/vod/1/index.m3u8").count == 3)
            #expect(try await transport.send(HTTPRequest(method: "DELETE", url: base.appendingPathComponent("lab/faults"))).status == 204)
        }
    }
}
