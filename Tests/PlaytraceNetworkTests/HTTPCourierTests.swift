import Foundation
import PlaytraceCore
import PlaytraceLab
import PlaytraceNetwork
import Testing

@Suite("HTTP courier")
struct HTTPCourierTests {
    @Test("2xx delivers, 5xx and no response retry, 401/403/404 pause, 400 refuses with the server's status; the key is sent")
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
        guard case .retry(let reason) = await courier.deliver(message("/live/master.m3u8")) else {
            Issue.record("a 503 is retried")
            return
        }
        #expect(reason.hasPrefix("HTTP 503"))
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
}
