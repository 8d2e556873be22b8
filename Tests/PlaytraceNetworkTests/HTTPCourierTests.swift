import Foundation
import PlaytraceCore
import PlaytraceLab
import PlaytraceNetwork
import Testing

@Suite("HTTP courier")
struct HTTPCourierTests {
    @Test("2xx delivers, 5xx and no response retry (429/503 after their Retry-After), 401/403/404 pause, 400 refuses; the key is sent")
    func outcomes() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let transport = AsyncHTTPClientTransport(clock: ContinuousClock())
        // A safety net, not a measure: the in-process lab shares two cores with the whole suite.
        let courier = HTTPCourier(name: "lab", transport: transport, timeout: .seconds(30))
        func message(_ path: String, port: Int = port) -> OutboxMessage {
            OutboxMessage(key: "key-\(path)", destination: "lab", payload: [],
                          metadata: ["url": "http://127.0.0.1:\(port)\(path)", "method": "GET",
                                     "header.X-Playtrace": "test"])
        }
        #expect(await courier.deliver(message("/vod/master.m3u8")) == .delivered)
        lab.faults.add(LabFault(pathContains: "/live/", kind: .status(503)))
        guard case .retry(let reason, let after) = await courier.deliver(message("/live/master.m3u8")) else {
            Issue.record("a 503 is retried")
            return
        }
        #expect(reason.hasPrefix("HTTP 503") && after == nil)
        // 429 and 503 say how long to wait: seconds, or an HTTP date (the lab's sink answers as its faults say).
        let post = OutboxMessage(key: "post", destination: "lab", payload: Array("batch".utf8),
                                 metadata: ["url": "http://127.0.0.1:\(port)/sink/retry"])
        lab.faults.add(LabFault(pathContains: "/sink/retry", kind: .retryAfter(status: 503, value: "30"), remaining: 1))
        #expect(await courier.deliver(post) == .retry("HTTP 503: ", after: .seconds(30)))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let date = formatter.string(from: Date().addingTimeInterval(120))
        lab.faults.add(LabFault(pathContains: "/sink/retry", kind: .retryAfter(status: 429, value: date), remaining: 1))
        guard case .retry(_, let dated?) = await courier.deliver(post) else {
            Issue.record("a 429 with an HTTP date is retried after it")
            return
        }
        #expect(dated > .seconds(115) && dated <= .seconds(120), "\(dated)")
        guard case .pause(let pause) = await courier.deliver(message("/nothing/here")) else {
            Issue.record("a 404 (a missing database or path) pauses the destination")
            return
        }
        #expect(pause.hasPrefix("HTTP 404"))
        for status in [401, 403] {
            lab.faults.add(LabFault(pathContains: "/vod/", kind: .status(status), remaining: 1))
            guard case .pause = await courier.deliver(message("/vod/master.m3u8")) else {
                Issue.record("a \(status) (credentials) pauses the destination")
                return
            }
        }
        lab.faults.add(LabFault(pathContains: "/vod/", kind: .status(400), remaining: 1))
        guard case .reject(let refusal) = await courier.deliver(message("/vod/master.m3u8")) else {
            Issue.record("a 400 refuses the message")
            return
        }
        #expect(refusal.hasPrefix("HTTP 400"))
        guard case .retry = await courier.deliver(message("/vod/master.m3u8", port: 9)) else {
            Issue.record("a refused connection is retried")
            return
        }
        #expect(await courier.deliver(OutboxMessage(destination: "lab", payload: [])) == .reject("no valid url in the message's metadata"))
        let request = lab.requests.all.first { $0.path == "/vod/master.m3u8" }
        #expect(request?.idempotencyKey == "key-/vod/master.m3u8")
        try await transport.shutdown()
        await lab.stop()
    }

    @Test("Retry-After: seconds, the three HTTP date forms, a date past, nonsense")
    func retryAfterValues() throws {
        let now = try #require(ISO8601DateFormatter().date(from: "2026-11-25T18:00:00Z"))
        #expect(RetryAfter.delay("120", now: now) == .seconds(120))
        #expect(RetryAfter.delay(" 0 ", now: now) == .zero)
        #expect(RetryAfter.delay("Wed, 25 Nov 2026 18:00:30 GMT", now: now) == .seconds(30))
        #expect(RetryAfter.delay("Wednesday, 25-Nov-26 18:01:00 GMT", now: now) == .seconds(60))
        #expect(RetryAfter.delay("Wed Nov 25 18:02:00 2026", now: now) == .seconds(120))
        #expect(RetryAfter.delay("Wed, 25 Nov 2026 17:00:00 GMT", now: now) == .zero, "a date past asks for no wait")
        #expect(RetryAfter.delay("soon", now: now) == nil && RetryAfter.delay("-5", now: now) == nil)
        #expect(RetryAfter.delay("99999999999999999999999", now: now).map { $0 > .seconds(1_000_000) } == true)
    }
}
