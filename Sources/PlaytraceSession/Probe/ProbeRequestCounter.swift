public import PlaytraceNetwork
import PlaytraceCore
import Synchronization

/// What a probe's viewers asked of the network: requests by kind and outcome, bytes, counted as they finish by the
/// transports every viewer shares (``counting(_:as:)``), whatever the number of viewers.
public final class ProbeRequestCounter: Sendable {
    /// What a request was for.
    public typealias Kind = ProbeRequestKind
    /// The counts of one kind.
    public typealias Counts = ProbeRequestCounts

    private let counts = Mutex<[Kind: Counts]>([:])

    public init() {}

    /// The counts so far, by kind.
    public var snapshot: [Kind: Counts] { counts.withLock { $0 } }

    /// `transport`, with each request counted as `kind` (or, for media, as a playlist or a segment by its URL).
    public func counting(_ transport: any HTTPTransport, as kind: Kind?) -> any HTTPTransport {
        CountingTransport(inner: transport, kind: kind, counter: self)
    }

    func record(_ kind: Kind, outcome: String, bytes: Int) {
        counts.withLock { counts in
            counts[kind, default: Counts()].requests += 1
            counts[kind, default: Counts()].bytes += bytes
            counts[kind, default: Counts()].outcomes[outcome, default: 0] += 1
        }
    }

    /// The outcome's name: the status class of a success, the status of an error, the failure's kind.
    static func outcome(status: Int) -> String {
        switch status {
        case 200..<300: "2xx"
        case 300..<400: "3xx"
        default: String(status)
        }
    }

    static func outcome(_ error: HTTPTransportError) -> String {
        switch error {
        case .invalidURL: "invalidURL"
        case .dns: "dns"
        case .connect: "connect"
        case .timeout: "timeout"
        case .connectionClosed: "connectionClosed"
        case .bodyTooLarge, .decompressedBodyTooLarge: "bodyTooLarge"
        case .cancelled: "cancelled"
        case .other: "other"
        }
    }
}

/// A transport that counts each request it passes on.
private struct CountingTransport: HTTPTransport {
    let inner: any HTTPTransport
    let kind: ProbeRequestCounter.Kind?
    let counter: ProbeRequestCounter

    func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
        let kind = self.kind ?? Self.mediaKind(of: request.url.path)
        do {
            let response = try await inner.send(request)
            counter.record(kind, outcome: ProbeRequestCounter.outcome(status: response.status), bytes: response.body.count)
            return response
        } catch {
            counter.record(kind, outcome: ProbeRequestCounter.outcome(error), bytes: 0)
            throw error
        }
    }

    /// A playlist by its name's extension, any other media request a segment.
    static func mediaKind(of path: String) -> ProbeRequestCounter.Kind {
        let lowered = path.lowercased()
        return lowered.hasSuffix(".m3u8") || lowered.hasSuffix(".m3u") || lowered.hasSuffix(".mpd") ? .playlist : .segment
    }
}
