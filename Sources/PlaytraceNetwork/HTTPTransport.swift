public import Foundation
import PlaytraceCore

/// An HTTP request as Playtrace components make it. Every request has a deadline.
public struct HTTPRequest: Sendable {
    /// The HTTP method (`GET`, `POST`…).
    public var method: String
    /// The absolute URL (http or https).
    public var url: URL
    /// Request headers, in order; a name may repeat.
    public var headers: [(name: String, value: String)]
    /// The body, if any.
    public var body: [UInt8]?
    /// The longest the whole request may take, from sending to the last byte of the body.
    public var timeout: Duration
    /// The largest body accepted; a larger one fails with ``HTTPTransportError/bodyTooLarge(limit:)``.
    public var maximumBodySize: Int

    public init(
        method: String = "GET", url: URL, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil,
        timeout: Duration = .seconds(30), maximumBodySize: Int = 64 << 20
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.maximumBodySize = maximumBodySize
    }
}

/// When a request's bytes arrived, measured on the transport's injected clock.
public struct RequestTiming: Sendable, Hashable {
    /// From sending the request to receiving the response head.
    public var timeToFirstByte: Duration
    /// From sending the request to receiving the last byte of the body.
    public var duration: Duration

    public init(timeToFirstByte: Duration, duration: Duration) {
        self.timeToFirstByte = timeToFirstByte
        self.duration = duration
    }
}

/// An HTTP response with its whole body.
public struct HTTPResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// Response headers, in order.
    public var headers: [(name: String, value: String)]
    /// The whole body (decompressed when the server compressed it).
    public var body: [UInt8]
    /// The URL that answered, after redirects; relative URLs in the body resolve against it.
    public var url: URL
    /// When the bytes arrived, on the transport's clock.
    public var timing: RequestTiming

    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8], url: URL, timing: RequestTiming) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
        self.timing = timing
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// The first header with this name (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// Why a request got no response. HTTP error statuses are responses, not transport errors.
public enum HTTPTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The URL cannot be requested (no host, unsupported scheme).
    case invalidURL(String)
    /// The host name could not be resolved.
    case dns(host: String)
    /// The connection could not be made (refused, unreachable, TLS failure).
    case connect(String)
    /// The request did not finish before its deadline.
    case timeout
    /// The server closed the connection before the response was complete.
    case connectionClosed
    /// The body exceeded the request's limit.
    case bodyTooLarge(limit: Int)
    /// The compressed body expanded past the transport's limit (a decompression bomb, or a very large body).
    case decompressedBodyTooLarge(limit: Int)
    /// The task was cancelled.
    case cancelled
    /// Any other failure, described.
    case other(String)

    public var description: String {
        switch self {
        case .invalidURL(let url): return "invalid URL \(url)"
        case .dns(let host): return "cannot resolve \(host)"
        case .connect(let reason): return "cannot connect: \(reason)"
        case .timeout: return "timed out"
        case .connectionClosed: return "connection closed before the response was complete"
        case .bodyTooLarge(let limit): return "the response is larger than \(ByteCount(limit))"
        case .decompressedBodyTooLarge(let limit): return "the response expands past \(ByteCount(limit)) once decompressed"
        case .cancelled: return "cancelled"
        case .other(let reason): return reason
        }
    }
}

/// Sends HTTP requests. Playtrace's only door to HTTP: engines, backends, the Outbox and ad beacons all go
/// through it, so that an app can plug in its own (for instance URLSession on Apple platforms).
///
/// ```swift
/// let transport = AsyncHTTPClientTransport(clock: ContinuousClock())
/// let response = try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:8080/vod.m3u8")!))
/// print(response.status, response.timing.timeToFirstByte)
/// ```
public protocol HTTPTransport: Sendable {
    /// Sends a request and returns its response, whatever its status.
    func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse
}
