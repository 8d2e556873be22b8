import Foundation
import PlaytraceCore
import PlaytraceLab
import PlaytraceNetwork
import Testing

@Suite("Outbox relay")
struct OutboxRelayTests {
    @Test("A POST under the secret is stored and delivered upstream with its headers; other requests are refused and stored nowhere")
    func relay() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let transport = AsyncHTTPClientTransport(clock: ContinuousClock())
        let outbox = try Outbox(path: nil, couriers: [HTTPCourier(name: "relayed", transport: transport)])
        let relay = OutboxRelay(outbox: outbox, destination: "relayed",
                                upstream: try #require(URL(string: "http://127.0.0.1:\(port)/sink/relay/")),
                                headers: ["Authorization": "Bearer secret"], compress: true, maximumBodyBytes: 1_000,
                                transform: { path, body in path == "/v1/upper" ? Array(String(decoding: body, as: UTF8.self).uppercased().utf8) : body })
        let base = try await relay.start()
        #expect(try await relay.start() == base, "starting twice keeps the same address")
        #expect(base.host == "127.0.0.1" && base.path.count > 30, "loopback, behind a secret path")

        func post(_ url: URL, _ body: String, method: String = "POST") async throws -> Int {
            try await transport.send(HTTPRequest(method: method, url: url, headers: [("Content-Type", "text/plain")],
                                                 body: Array(body.utf8), timeout: .seconds(5))).status
        }
        #expect(try await post(base.appending(path: "v1/upper"), "hello") == 204)
        #expect(try await post(base.appending(path: "v1/plain"), "as is") == 204)
        let relayPort = try #require(base.port)
        let withoutSecret = try #require(URL(string: "http://127.0.0.1:\(relayPort)/v1/upper"))
        #expect(try await post(withoutSecret, "no") == 404)
        #expect(try await post(base.appending(path: "v1/upper"), "no", method: "PUT") == 405)
        #expect(try await post(base.appending(path: "v1/upper"), String(repeating: "x", count: 1_001)) == 413)
        #expect(try await outbox.statistics().pending == 2, "only the two accepted requests are stored")

        await outbox.flush()
        await relay.stop()
        try await transport.shutdown()
        await lab.stop()
        #expect(relay.baseURL == nil)
        let deliveries = lab.sink.accepted(under: "/sink/relay/")
        #expect(deliveries.map(\.path).sorted() == ["/sink/relay/v1/plain", "/sink/relay/v1/upper"])
        for delivery in deliveries {
            #expect(delivery.headers["authorization"] == "Bearer secret")
            #expect(delivery.headers["content-type"] == "text/plain")
            #expect(delivery.headers["content-encoding"] == "gzip")
            #expect(delivery.headers["idempotency-key"] != nil)
        }
        let bodies = try deliveries.sorted { $0.path < $1.path }.map { String(decoding: try Gzip.decompress($0.body), as: UTF8.self) }
        #expect(bodies == ["as is", "HELLO"])
    }
}
