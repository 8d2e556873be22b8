public import Foundation
public import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import PlaytraceCore

/// Accepts HTTP `POST`s on a loopback port and hands each one to the ``Outbox``: a library that makes its own
/// HTTP requests (swift-otel's OTLP exporter) gets durable, retrying delivery by sending to the relay instead of
/// to the real server.
///
/// A request to `http://127.0.0.1:<port>/<secret>/<path>` becomes a message for `destination` whose URL is
/// `upstream` + `/<path>`, with the request's `Content-Type` and `Content-Encoding`; the configured headers (an API
/// key) are neither sent to the sender nor stored: the message is marked as needing its destination's credentials,
/// which the destination's courier attaches at delivery (``OutboxCredentials``). Gzip-compressed when `compress` is set and the sender
/// did not compress. The relay answers `204 No Content` once the message is
/// on disk, `507` when the outbox cannot store it, `413` for a body over the limit and `404` for a path without the
/// secret (so other local processes cannot use the relay to reach the server with its credentials).
///
/// ```swift
/// let relay = OutboxRelay(outbox: outbox, destination: "otlp", upstream: URL(string: "https://otlp.example.com")!)
/// let base = try await relay.start()          // http://127.0.0.1:41213/3f0c…
/// // point the exporter at base + "/v1/metrics"
/// ```
public final class OutboxRelay: Sendable {
    /// Where relayed requests go: the server's base URL, to which the request's path (after the secret) is added.
    public let upstream: URL
    /// The outbox destination (courier name) of relayed messages.
    public let destination: String
    /// Requests with a larger body are refused with `413`.
    public let maximumBodyBytes: Int
    private let outbox: Outbox
    private let headers: [String: String]
    private let compress: Bool
    private let transform: (@Sendable (_ path: String, _ body: [UInt8]) -> [UInt8])?
    private let secret: String
    private let logger: Logger
    private let channel = Locked<(any Channel)?>(nil)

    /// - Parameters:
    ///   - outbox: where relayed messages are stored before the sender gets its answer.
    ///   - destination: the outbox destination of the relayed messages (a courier of that name delivers them).
    ///   - upstream: the server the messages are for; a request's path is appended to it.
    ///   - headers: the destination's headers (an `Authorization` or `Api-Key` header, for instance): not stored,
    ///     their presence marks each message as needing the courier's credentials.
    ///   - compress: gzip bodies that come uncompressed (`Content-Encoding: gzip`).
    ///   - transform: rewrites an uncompressed body before it is stored (the path is the one after the secret), to
    ///     correct what the sender gets wrong.
    ///   - maximumBodyBytes: the largest body accepted (a larger one is answered 413).
    ///   - logger: where the relay says what it refused.
    public init(outbox: Outbox, destination: String, upstream: URL, headers: [String: String] = [:],
                compress: Bool = false, maximumBodyBytes: Int = 8 << 20,
                transform: (@Sendable (_ path: String, _ body: [UInt8]) -> [UInt8])? = nil,
                logger: Logger = Logger(label: "playtrace.outbox.relay")) {
        self.compress = compress
        self.transform = transform
        self.outbox = outbox
        self.destination = destination
        self.upstream = upstream
        self.headers = headers
        self.maximumBodyBytes = maximumBodyBytes
        self.logger = logger
        secret = UUID().uuidString.lowercased()
    }

    deinit {
        channel.withLock { $0 }?.close(promise: nil)
    }

    /// The base URL senders post to (with the secret), once started.
    public var baseURL: URL? {
        guard let port = channel.withLock({ $0 })?.localAddress?.port else { return nil }
        return URL(string: "http://127.0.0.1:\(port)/\(secret)")
    }

    /// Binds a free loopback port and starts accepting; returns ``baseURL``. Starting twice returns the same URL.
    @discardableResult
    public func start() async throws -> URL {
        if let baseURL { return baseURL }
        let target = RelayTarget(outbox: outbox, destination: destination, upstream: upstream, headers: headers,
                                 compress: compress, transform: transform, prefix: "/" + secret, maximumBodyBytes: maximumBodyBytes, logger: logger)
        let bound = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(RelayHandler(target: target))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        channel.withLock { $0 = bound }
        guard let baseURL else { throw RelayError.notListening }
        logger.debug("outbox relay listening", metadata: ["url": "\(baseURL)", "upstream": "\(upstream)"])
        return baseURL
    }

    /// Stops accepting. Messages already relayed stay in the outbox.
    public func stop() async {
        let old = channel.withLock { value in
            defer { value = nil }
            return value
        }
        // A listening socket that is already closed has nothing left to release.
        try? await old?.close().get()
    }

    enum RelayError: Error, CustomStringConvertible {
        case notListening
        var description: String { "the relay's socket has no local address" }
    }
}

/// What the relay's connections need to turn a request into an outbox message.
private struct RelayTarget: Sendable {
    let outbox: Outbox
    let destination: String
    let upstream: URL
    let headers: [String: String]
    let compress: Bool
    let transform: (@Sendable (_ path: String, _ body: [UInt8]) -> [UInt8])?
    let prefix: String
    let maximumBodyBytes: Int
    let logger: Logger

    /// Stores a request as a message; the status to answer. Runs off the event loop: compression and the SQLite
    /// write never hold the connections' thread.
    func relay(head: HTTPRequestHead, body: [UInt8]) async -> HTTPResponseStatus {
        guard head.method == .POST else { return .methodNotAllowed }
        let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        guard path == prefix || path.hasPrefix(prefix + "/") else { return .notFound }
        let relativePath = String(path.dropFirst(prefix.count))
        var url = upstream.absoluteString
        if url.hasSuffix("/") { url.removeLast() }
        url += relativePath
        var metadata = ["url": url, "method": "POST"]
        // The configured headers are the destination's credentials: its courier attaches them at delivery.
        if !headers.isEmpty { metadata[OutboxCredentials.metadataKey] = OutboxCredentials.required }
        for name in ["Content-Type", "Content-Encoding"] {
            if let value = head.headers.first(name: name) { metadata["header." + name] = value }
        }
        do {
            var payload = body
            if let transform, head.headers.first(name: "Content-Encoding") == nil {
                payload = transform(relativePath, payload)
            }
            if compress, metadata["header.Content-Encoding"] == nil {
                payload = try Gzip.compress(payload)
                metadata["header.Content-Encoding"] = "gzip"
            }
            try await outbox.persist(OutboxMessage(destination: destination, payload: payload, metadata: metadata))
            return .noContent
        } catch {
            logger.error("a relayed request could not be stored for delivery", metadata: [
                "url": "\(url)", "bytes": "\(body.count)", "error": "\(error)",
            ])
            return .insufficientStorage
        }
    }
}

/// Collects the requests of a connection, relays each and answers them in order (a request is stored off the
/// event loop; its answer waits for the answers to the requests before it).
private final class RelayHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let target: RelayTarget
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var tooLarge = false
    /// Completes once the last request's answer is written.
    private var lastAnswer: EventLoopFuture<Void>?

    init(target: RelayTarget) {
        self.target = target
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body.removeAll(keepingCapacity: true)
            tooLarge = false
        case .body(let buffer):
            guard !tooLarge else { return }
            if body.count + buffer.readableBytes > target.maximumBodyBytes {
                tooLarge = true
                body.removeAll()
            } else {
                body.append(contentsOf: buffer.readableBytesView)
            }
        case .end:
            guard let head else { return }
            self.head = nil
            let status = context.eventLoop.makePromise(of: HTTPResponseStatus.self)
            if tooLarge {
                status.succeed(.payloadTooLarge)
            } else {
                let target = self.target
                let body = self.body
                status.completeWithTask { await target.relay(head: head, body: body) }
            }
            body.removeAll(keepingCapacity: true)
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            let previous = lastAnswer ?? context.eventLoop.makeSucceededVoidFuture()
            lastAnswer = previous.flatMap { status.futureResult }.flatMap { status in
                Self.answer(bound.value, head: head, status: status)
            }
        }
    }

    private static func answer(_ context: ChannelHandlerContext, head: HTTPRequestHead, status: HTTPResponseStatus)
        -> EventLoopFuture<Void>
    {
        var headers = HTTPHeaders()
        // A 204 carries no Content-Length (RFC 9110 §8.6); other answers say their body is empty.
        if status != .noContent { headers.add(name: "Content-Length", value: "0") }
        if !head.isKeepAlive { headers.add(name: "Connection", value: "close") }
        context.write(NIOAny(HTTPServerResponsePart.head(HTTPResponseHead(version: head.version, status: status, headers: headers))),
                      promise: nil)
        let written = context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil)))
        guard !head.isKeepAlive else { return written }
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        return written.always { _ in bound.value.close(promise: nil) }
    }
}
