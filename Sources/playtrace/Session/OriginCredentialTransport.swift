import Foundation
import PlaytraceCore
import PlaytraceNetwork

/// Sends the credentials a stream URL carried (`https://user:password@origin/…`) with every request to that origin,
/// as a player does, while the URL itself travels without them: the Player, the summary, the report, the telemetry
/// and every line printed see `https://origin/…` only (``URLRedaction``).
struct OriginCredentialTransport: HTTPTransport {
    private let inner: any HTTPTransport
    private let origin: String
    private let authorization: String

    /// - Parameters:
    ///   - url: the stream URL without its user information.
    ///   - authorization: the `Authorization` value its user information stood for.
    init(_ inner: any HTTPTransport, url: URL, authorization: String) {
        self.inner = inner
        origin = Self.origin(of: url)
        self.authorization = authorization
    }

    func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
        guard Self.origin(of: request.url) == origin,
              !request.headers.contains(where: { $0.name.lowercased() == "authorization" }) else {
            return try await inner.send(request)
        }
        var request = request
        request.headers.append(("Authorization", authorization))
        return try await inner.send(request)
    }

    /// Scheme, host and port: what the credentials are for (RFC 6454's origin).
    private static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }
}
