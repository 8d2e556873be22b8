public import AsyncHTTPClient
import Foundation
import PlaytraceCore
public import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPCompression

/// ``HTTPTransport`` on async-http-client (SwiftNIO): the transport Playtrace uses on Linux and servers.
///
/// Timings are measured on the injected clock, so that a test clock sees the durations a throttling test server
/// imposes in virtual time. Each request also has a real deadline (its ``HTTPRequest/timeout``).
///
/// A transport with its own client should be shut down with ``shutdown()`` once no longer needed; one that is
/// dropped without it shuts its client down in the background rather than stopping the process.
public final class AsyncHTTPClientTransport: HTTPTransport {
    /// The most a compressed response may expand to (the largest ``HTTPRequest/maximumBodySize`` by default).
    public static let decompressionLimit = 64 << 20

    private let client: HTTPClient
    private let ownsClient: Bool
    private let isShutDown = Locked(false)
    private let clock: any Clock<Duration>
    private let logger: Logger

    /// Creates a transport with its own HTTP client (shut down by ``shutdown()``).
    /// - Parameters:
    ///   - clock: what request timings are measured on.
    ///   - logger: the client's logger.
    ///   - connectionsPerHost: the HTTP/1.1 connections kept open to one host at most (async-http-client's soft
    ///     limit, 8 by default): a process of many viewers sizes it for them, or their requests queue behind eight.
    public init(clock: any Clock<Duration> = ContinuousClock(), logger: Logger = Logger(label: "playtrace.http"),
                connectionsPerHost: Int? = nil) {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .follow(max: 5, allowCycles: false))
        configuration.timeout = .init(connect: .seconds(10), read: .seconds(30))
        // A size, not a ratio: playlists are repetitive text that compresses far better than 50 to 1.
        configuration.decompression = .enabled(limit: .size(Self.decompressionLimit))
        // Playtrace retries at its own layers (engines, the Outbox) with backoff on the injected clock; the pool's
        // own retry would hide a refused connection until the deadline.
        configuration.connectionPool.retryConnectionEstablishment = false
        if let connectionsPerHost {
            configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(1, connectionsPerHost)
        }
        self.client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.ownsClient = true
        self.clock = clock
        self.logger = logger
    }

    /// Creates a transport over an existing client, which the caller keeps and shuts down.
    public init(client: HTTPClient, clock: any Clock<Duration> = ContinuousClock(),
                logger: Logger = Logger(label: "playtrace.http")) {
        self.client = client
        self.ownsClient = false
        self.clock = clock
        self.logger = logger
    }

    /// Shuts the transport's own client down; a transport over a caller's client does nothing.
    public func shutdown() async throws {
        guard ownsClient, isShutDown.withLock({ state in defer { state = true }; return !state }) else { return }
        try await client.shutdown()
    }

    deinit {
        // The client keeps itself alive until its shutdown completes.
        if ownsClient, !isShutDown.withLock({ $0 }) { client.shutdown().whenComplete { _ in } }
    }

    /// Sends the request; the whole exchange, from sending to the last byte of the body, is bounded by the
    /// request's timeout in real time (a server that trickles its body does not hold the caller forever).
    public func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              request.url.host != nil, (0...65_535).contains(request.url.port ?? 0)
        else { throw .invalidURL(request.url.absoluteString) }
        let deadline = ContinuousClock.now + request.timeout
        do {
            return try await withThrowingTaskGroup(of: HTTPResponse.self) { group in
                group.addTask { try await self.exchange(request) }
                group.addTask {
                    // A coalesced clock is real time with one shared timer: a sleep on it is an entry in a heap,
                    // gone as soon as it is cancelled. A sleep on the continuous clock arms a timer of its own that
                    // stays armed until its deadline, cancelled or not: one per request for tens of seconds.
                    if let coalesced = self.clock as? CoalescedClock {
                        try await coalesced.sleep(until: deadline)
                    } else {
                        try await Task.sleep(until: deadline, clock: .continuous)
                    }
                    throw HTTPTransportError.timeout
                }
                defer { group.cancelAll() }
                guard let response = try await group.next() else { throw HTTPTransportError.cancelled }
                return response
            }
        } catch {
            throw Self.classify(error, url: request.url)
        }
    }

    private func exchange(_ request: HTTPRequest) async throws -> HTTPResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for header in request.headers { outgoing.headers.add(name: header.name, value: header.value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        let stopwatch = Stopwatch(clock: clock)
        let timeoutNanoseconds = request.timeout.components.seconds * 1_000_000_000
            + request.timeout.components.attoseconds / 1_000_000_000
        let deadline = NIODeadline.now() + .nanoseconds(timeoutNanoseconds)
        do {
            let response = try await client.execute(outgoing, deadline: deadline, logger: logger)
            let firstByte = stopwatch.elapsed
            var body: [UInt8] = []
            if let length = response.headers.first(name: "content-length").flatMap(Int.init) {
                guard length <= request.maximumBodySize else { throw HTTPTransportError.bodyTooLarge(limit: request.maximumBodySize) }
                body.reserveCapacity(length)
            }
            for try await chunk in response.body {
                guard body.count + chunk.readableBytes <= request.maximumBodySize else {
                    throw HTTPTransportError.bodyTooLarge(limit: request.maximumBodySize)
                }
                body.append(contentsOf: chunk.readableBytesView)
            }
            // A body shorter than announced was cut; but a decoded (gzip) body's length is not the announced one:
            // a small document compresses to more bytes than it has.
            let isEncoded = response.headers.first(name: "content-encoding").map { $0.lowercased() != "identity" } ?? false
            if !isEncoded, let expected = response.headers.first(name: "content-length").flatMap(Int.init), body.count < expected {
                throw HTTPTransportError.connectionClosed
            }
            return HTTPResponse(
                status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) }, body: body,
                url: response.url ?? request.url,
                timing: RequestTiming(timeToFirstByte: firstByte, duration: stopwatch.elapsed))
        } catch {
            throw Self.classify(error, url: request.url)
        }
    }

    static func classify(_ error: any Error, url: URL) -> HTTPTransportError {
        if let error = error as? HTTPTransportError { return error }
        if error is CancellationError { return .cancelled }
        if let error = error as? HTTPClientError {
            if [.deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout].contains(error) { return .timeout }
            if [.remoteConnectionClosed, .bodyLengthMismatch].contains(error) { return .connectionClosed }
            if error == .cancelled { return .cancelled }
            if [.invalidURL, .emptyHost, .emptyScheme].contains(error) { return .invalidURL(url.absoluteString) }
            return .other(String(describing: error))
        }
        if error is HTTPParserError { return .connectionClosed }  // the body ended before its announced length
        if let error = error as? IOError { return .connect(String(cString: strerror(error.errnoCode))) }
        if let error = error as? NIOHTTPDecompression.DecompressionError, error == .limit {
            return .decompressedBodyTooLarge(limit: decompressionLimit)
        }
        let text = String(describing: error)
        if text.contains("NXDOMAIN") || text.contains("resolve") || text.contains("DNS") {
            return .dns(host: url.host ?? "")
        }
        if text.contains("connectTimeout") || text.contains("Timeout") { return .timeout }
        if text.contains("refused") || text.contains("connect") || text.contains("unreachable") {
            return .connect(text)
        }
        if text.contains("ioOnClosedChannel") || text.contains("EOF") || text.contains("closed") { return .connectionClosed }
        return .other(text)
    }
}
