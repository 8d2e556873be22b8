import Foundation
public import PlaytraceNetwork

/// One delivery attempt of a beacon URL, as the ``BeaconCourier`` reports it.
public struct BeaconAttempt: Sendable, Hashable {
    /// The Outbox message's key: the firing's delivery key and the URL's index (`beacon:p/a/start@10000/0`).
    public var key: String
    public var url: String
    /// 1 for the first attempt.
    public var attempt: Int
    /// The HTTP status, when a response came.
    public var status: Int?
    public var outcome: DeliveryOutcome
}

/// Delivers beacon URLs for the `Outbox`: a `GET` of the message's `url` (macros already filled) with a deadline,
/// redirects followed by the transport.
///
/// A response from 200 to 399 delivers the beacon; a timeout, a refused connection, 408, 429 or a 5xx is tried
/// again, until ``maximumAttempts`` (then the beacon failed for good); another status is a refusal. `about:blank`
/// counts as delivered without a request; a URL whose scheme is not http or https is refused without one.
/// Each attempt is reported to `report`, so that the session can move its events' reporting states.
public struct BeaconCourier: OutboxCourier {
    /// The Outbox destination of beacons.
    public static let destination = "ad-beacons"
    public var name: String { Self.destination }
    /// Each beacon URL on its own: a vendor that fails or does not answer delays its own beacons only. At most
    /// ``Concurrency/maximumPerHost`` requests at once to one host, ``Concurrency/maximumInFlight`` in all.
    public var ordering: OutboxOrdering {
        .independent(maximumPerHost: concurrency.maximumPerHost, maximumInFlight: concurrency.maximumInFlight)
    }

    /// How many beacon requests are under way at once.
    public struct Concurrency: Sendable, Hashable {
        public var maximumPerHost: Int
        public var maximumInFlight: Int

        public init(maximumPerHost: Int, maximumInFlight: Int) {
            self.maximumPerHost = max(1, maximumPerHost)
            self.maximumInFlight = max(1, maximumInFlight)
        }

        /// One viewer's: six to a host, as browsers open, 32 in all.
        public static let viewer = Concurrency(maximumPerHost: 6, maximumInFlight: 32)

        /// What `viewers` viewers sharing one outbox open together (a probe's): a viewer's limits times their number,
        /// up to 1,024 requests at once.
        public static func viewers(_ count: Int) -> Concurrency {
            let viewers = max(1, count)
            return Concurrency(maximumPerHost: min(6 * viewers, 1_024), maximumInFlight: min(32 * viewers, 1_024))
        }
    }

    private let concurrency: Concurrency

    private let transport: any HTTPTransport
    private let timeout: Duration
    /// The attempts a beacon gets before it fails for good (the retry budget).
    public let maximumAttempts: Int
    private let report: @Sendable (BeaconAttempt) -> Void

    /// - Parameters:
    ///   - transport: the HTTP client.
    ///   - timeout: the deadline of each request.
    ///   - maximumAttempts: the retry budget of each URL, first attempt included.
    ///   - concurrency: the requests under way at once.
    ///   - report: told of each attempt's outcome (on the Outbox's task).
    public init(transport: any HTTPTransport, timeout: Duration = .seconds(5), maximumAttempts: Int = 8,
                concurrency: Concurrency = .viewer, report: @escaping @Sendable (BeaconAttempt) -> Void = { _ in }) {
        self.transport = transport
        self.concurrency = concurrency
        self.timeout = timeout
        self.maximumAttempts = max(1, maximumAttempts)
        self.report = report
    }

    public func deliver(_ message: OutboxMessage) async -> DeliveryOutcome {
        let text = message.metadata["url"] ?? ""
        let attempt = message.attempts + 1
        var status: Int?
        let outcome: DeliveryOutcome
        switch BeaconURLPolicy.verdict(for: text) {
        case .skip:
            outcome = .delivered
        case .refuse(let reason):
            outcome = .reject(reason)
        case .request(let url):
            do {
                let response = try await transport.send(HTTPRequest(url: url, timeout: timeout, maximumBodySize: 64 << 10))
                status = response.status
                switch response.status {
                case 200..<400: outcome = .delivered
                case 429, 503:
                    let after = response.header("Retry-After").flatMap { RetryAfter.delay($0, now: Date()) }
                    outcome = retryOrGiveUp("HTTP \(response.status)", attempt: attempt, after: after)
                case 408, 500...: outcome = retryOrGiveUp("HTTP \(response.status)", attempt: attempt)
                default: outcome = .reject("HTTP \(response.status)")
                }
            } catch .bodyTooLarge, .decompressedBodyTooLarge {
                // The server answered (with more than a pixel): the hit was counted.
                outcome = .delivered
            } catch {
                outcome = retryOrGiveUp(error.description, attempt: attempt)
            }
        }
        report(BeaconAttempt(key: message.key, url: text, attempt: attempt, status: status, outcome: outcome))
        return outcome
    }

    private func retryOrGiveUp(_ reason: String, attempt: Int, after: Duration? = nil) -> DeliveryOutcome {
        attempt >= maximumAttempts ? .reject("gave up after \(attempt) attempts: \(reason)") : .retry(reason, after: after)
    }
}
