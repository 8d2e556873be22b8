import Foundation
#if canImport(Glibc)
import Glibc
#endif
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
        // The relay's headers are the destination's credentials: the courier attaches them, the outbox never holds them.
        let outbox = try Outbox(path: nil, couriers: [HTTPCourier(name: "relayed", transport: transport,
                                                                  credentials: [("Authorization", "Bearer secret")])])
        let relay = OutboxRelay(outbox: outbox, destination: "relayed",
                                upstream: try #require(URL(string: "http://127.0.0.1:\(port)/sink/relay/")),
                                headers: ["Authorization": "Bearer secret"], compress: true, maximumBodyBytes: 1_000,
                                transform: { path, body in path == "/v1/upper" ? Array(String(decoding: body, as: UTF8.self).uppercased().utf8) : body })
        let base = try await relay.start()
        #expect(try await relay.start() == base, "starting twice keeps the same address")
        #expect(base.host == "127.0.0.1" && base.path.count > 30, "loopback, behind a secret path")

        // A safety net, not a measure: the relay answers once the outbox stored the request, and with the whole suite
        // running on two cores that store waited more than 5 s in two runs of this session.
        func post(_ url: URL, _ body: String, method: String = "POST") async throws -> Int {
            try await transport.send(HTTPRequest(method: method, url: url, headers: [("Content-Type", "text/plain")],
                                                 body: Array(body.utf8), timeout: .seconds(30))).status
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

    @Test("Pipelined requests on one connection are answered in their order, each once it is stored")
    func pipelining() async throws {
        let outbox = try Outbox(path: nil, couriers: [])
        let relay = OutboxRelay(outbox: outbox, destination: "relayed",
                                upstream: try #require(URL(string: "http://127.0.0.1:9/sink/")), maximumBodyBytes: 100)
        let base = try await relay.start()
        let port = try #require(base.port)
        // Three requests written at once: stored, too large, stored (the second is answered without storing, so it
        // would overtake the first if answers were not kept in order).
        let requests = [("a", "first"), ("b", String(repeating: "x", count: 200)), ("c", "third")].map { path, body in
            "POST \(base.path)/\(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        }.joined()
        let answer = try await Task.detached { try Self.exchange(port: port, request: requests, answers: 3) }.value
        let statuses = answer.split(separator: "\r\n").filter { $0.hasPrefix("HTTP/1.1 ") }.map { $0.dropFirst(9).prefix(3) }
        #expect(statuses == ["204", "413", "204"], "\(answer)")
        #expect(try await outbox.statistics().pending == 2)
        await relay.stop()
    }

    /// Writes raw bytes to a loopback port and reads until `answers` status lines came back (or 30 s passed).
    private static func exchange(port: Int, request: String, answers: Int) throws -> String {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.EIO) }
        defer { close(socket) }
        // A safety net, not a measure: with the whole suite running on two cores, the relay's store can wait seconds
        // for the cooperative pool.
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        // Invariant: the address lives for the call; connect reads the size given of it, a sockaddr_in's.
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        let bytes = Array(request.utf8)
        guard send(socket, bytes, bytes.count, 0) == bytes.count else { throw POSIXError(.EIO) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while String(decoding: received, as: UTF8.self).components(separatedBy: "HTTP/1.1 ").count - 1 < answers {
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }
}
