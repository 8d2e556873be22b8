import Foundation
import NIOCore
import NIOPosix
import PlaytraceCore
import PlaytraceNetwork
import Testing

/// A loopback HTTP server that answers every request with the same bytes and closes: a response exactly as a
/// server wrote it, framing included.
private final class CannedServer: Sendable {
    private let response: [UInt8]
    private let channel = Locked<(any Channel)?>(nil)

    init(_ response: [UInt8]) { self.response = response }

    func start() async throws -> Int {
        let response = response
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Answer(response: response))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        channel.withLock { $0 = server }
        return server.localAddress?.port ?? 0
    }

    func stop() async {
        try? await channel.withLock { $0 }?.close().get()
    }

    /// Answers once the request's head has arrived, then closes.
    private final class Answer: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let response: [UInt8]
        init(response: [UInt8]) { self.response = response }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            guard buffer.readableBytesView.firstRange(of: Array("\r\n\r\n".utf8)) != nil else { return }
            let channel = context.channel
            let response = channel.allocator.buffer(bytes: self.response)
            context.writeAndFlush(wrapOutboundOut(response)).whenComplete { _ in channel.close(promise: nil) }
        }
    }
}

@Suite("HTTP transport: framing and content coding")
struct AsyncHTTPClientTransportTests {
    static func head(_ lines: [String], bodyLength: Int) -> [UInt8] {
        Array((["HTTP/1.1 200 OK"] + lines + ["Content-Length: \(bodyLength)", "Connection: close", "", ""])
            .joined(separator: "\r\n").utf8)
    }

    @Test("A gzip body longer than the document it decodes to is the document, not a cut connection")
    func smallGzipBody() async throws {
        let document = Array(#"{"status":"success"}"#.utf8)
        let compressed = try Gzip.compress(document)
        #expect(compressed.count > document.count, "gzip's header makes a small document longer")
        let server = CannedServer(Self.head(["Content-Encoding: gzip", "Content-Type: application/json"],
                                            bodyLength: compressed.count) + compressed)
        let port = try await server.start()
        let transport = AsyncHTTPClientTransport()
        let response = try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/")!))
        #expect(response.status == 200 && response.body == document)
        try await transport.shutdown()
        await server.stop()
    }

    @Test("A plain body shorter than its Content-Length is a cut connection")
    func shortPlainBody() async throws {
        let server = CannedServer(Self.head(["Content-Type: text/plain"], bodyLength: 100) + Array("only this".utf8))
        let port = try await server.start()
        let transport = AsyncHTTPClientTransport()
        await #expect(throws: HTTPTransportError.connectionClosed) {
            _ = try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/")!))
        }
        try await transport.shutdown()
        await server.stop()
    }
}
