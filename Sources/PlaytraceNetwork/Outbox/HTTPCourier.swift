import Foundation

/// Delivers outbox messages over HTTP: the payload is the body; the metadata gives the `url`, the `method`
/// (`POST` by default) and headers (keys `header.<Name>`). The message key goes as `Idempotency-Key`.
///
/// 2xx is delivered; 408, 429 and 5xx, and no response, are retried (429 and 503 no sooner than their
/// `Retry-After` says); 401, 403 and 404 say the destination itself is
/// not set up for these messages (credentials, a missing database or path): the destination is paused and its
/// messages kept; other statuses (a 400 for malformed data) refuse that message for good, with the server's message.
public struct HTTPCourier: OutboxCourier {
    public let name: String
    private let transport: any HTTPTransport
    private let timeout: Duration

    public init(name: String, transport: any HTTPTransport, timeout: Duration = .seconds(15)) {
        self.name = name
        self.transport = transport
        self.timeout = timeout
    }

    public func deliver(_ message: OutboxMessage) async -> DeliveryOutcome {
        guard let text = message.metadata["url"], let url = URL(string: text) else {
            return .reject("no valid url in the message's metadata")
        }
        var headers: [(name: String, value: String)] = [("Idempotency-Key", message.key)]
        for (key, value) in message.metadata.sorted(by: { $0.key < $1.key }) where key.hasPrefix("header.") {
            headers.append((String(key.dropFirst("header.".count)), value))
        }
        let request = HTTPRequest(method: message.metadata["method"] ?? "POST", url: url, headers: headers,
                                  body: message.payload, timeout: timeout, maximumBodySize: 1 << 20)
        do {
            let response = try await transport.send(request)
            if response.isSuccess { return .delivered }
            // The server's message on one line (bodies end with a line break, JSON errors span several).
            let message = String(decoding: response.body.prefix(500), as: UTF8.self)
                .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            let detail = "HTTP \(response.status): " + message
            switch response.status {
            case 429, 503:
                // Too many requests, or unavailable for a while: the server may say how long to wait.
                return .retry(detail, after: response.header("Retry-After").flatMap { RetryAfter.delay($0, now: Date()) })
            case 408, 500...: return .retry(detail)
            case 401, 403, 404: return .pause(detail)
            default: return .reject(detail)
            }
        } catch {
            return .retry(error.description)
        }
    }
}
