import Foundation

/// Delivers outbox messages over HTTP: the payload is the body; the metadata gives the `url`, the `method`
/// (`POST` by default) and headers (keys `header.<Name>`). The message key goes as `Idempotency-Key`.
///
/// 2xx is delivered; 408, 429 and 5xx, and no response, are retried (429 and 503 no sooner than their
/// `Retry-After` says); 401, 403 and 404 say the destination itself is
/// not set up for these messages (credentials, a missing database or path): the destination is paused and its
/// messages kept; 413 (too large) cuts the payload in two with the courier's `splitter`, each half delivered on its
/// own, down to what cannot be cut; other statuses (a 400 for malformed data) refuse that message for good, with the
/// server's message.
///
/// Credentials are the courier's, not the message's (``OutboxCredentials``): `credentials` are sent with every
/// request; a message marked as needing them, delivered by a courier that has none, pauses the destination with
/// `missingCredentials` as the reason (what to give, and how), its messages kept.
public struct HTTPCourier: OutboxCourier {
    public let name: String
    private let transport: any HTTPTransport
    private let timeout: Duration
    private let splitter: (@Sendable ([UInt8]) -> [[UInt8]]?)?
    private let credentials: [(name: String, value: String)]
    private let missingCredentials: String

    /// - Parameters:
    ///   - name: the destination.
    ///   - transport: the HTTP client.
    ///   - timeout: the deadline of each request.
    ///   - splitter: cuts a payload (uncompressed) in pieces for a server that refused it as too large; `nil` when
    ///     the payload cannot be cut (``lineSplitter`` for line-oriented payloads).
    ///   - credentials: headers sent with every request (`Authorization`, `Api-Key`…), from the configuration.
    ///   - missingCredentials: what to give when a message needs credentials the courier lacks.
    public init(name: String, transport: any HTTPTransport, timeout: Duration = .seconds(15),
                splitter: (@Sendable ([UInt8]) -> [[UInt8]]?)? = nil,
                credentials: [(name: String, value: String)] = [], missingCredentials: String = "its credentials") {
        self.name = name
        self.transport = transport
        self.timeout = timeout
        self.splitter = splitter
        self.credentials = credentials
        self.missingCredentials = missingCredentials
    }

    /// Cuts a payload of lines (InfluxDB's line protocol, carbon's plaintext) in two halves of whole lines; `nil`
    /// for one line.
    public static let lineSplitter: @Sendable ([UInt8]) -> [[UInt8]]? = { payload in
        var ends: [Int] = []
        for (index, byte) in payload.enumerated() where byte == 0x0A && index < payload.count - 1 { ends.append(index) }
        guard !ends.isEmpty else { return nil }
        let cut = ends[(ends.count - 1) / 2] + 1
        return [Array(payload[..<cut]), Array(payload[cut...])]
    }

    public func split(_ message: OutboxMessage) -> [OutboxMessage]? {
        guard let splitter else { return nil }
        let compressed = message.metadata["header.Content-Encoding"] == "gzip"
        guard let payload = compressed ? try? Gzip.decompress(message.payload) : message.payload,
              let pieces = splitter(payload), pieces.count > 1 else { return nil }
        var result: [OutboxMessage] = []
        for piece in pieces {
            var part = message
            part.id = nil
            guard let bytes = compressed ? try? Gzip.compress(piece) : piece else { return nil }
            part.payload = bytes
            result.append(part)
        }
        return result
    }

    public func deliver(_ message: OutboxMessage) async -> DeliveryOutcome {
        guard let text = message.metadata["url"], let url = URL(string: text) else {
            return .reject("no valid url in the message's metadata")
        }
        if message.metadata[OutboxCredentials.metadataKey] == OutboxCredentials.required, credentials.isEmpty {
            return .pause("\(name) needs credentials that this run was not given: \(missingCredentials)")
        }
        var headers: [(name: String, value: String)] = [("Idempotency-Key", message.key)]
        for (key, value) in message.metadata.sorted(by: { $0.key < $1.key }) where key.hasPrefix("header.") {
            headers.append((String(key.dropFirst("header.".count)), value))
        }
        headers += credentials
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
            case 413: return .split(detail)
            default: return .reject(detail)
            }
        } catch {
            return .retry(error.description)
        }
    }
}
