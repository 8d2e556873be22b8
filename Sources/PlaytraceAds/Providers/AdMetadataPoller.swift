public import Foundation
import PlaytraceCore
public import PlaytraceNetwork

/// Why a metadata poll failed.
public enum AdMetadataPollError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The request failed (no response, a timeout, a body over the limit…).
    case transport(String)
    /// The response could not be used.
    case metadata(AdMetadataError)

    public var description: String {
        switch self {
        case .transport(let reason): "the ad metadata request failed: \(reason)"
        case .metadata(let error): error.description
        }
    }
}

/// Polls an ad metadata URL and hands each response to an ``AdBeaconingSession``: the first poll at once, then every
/// ``interval``. The HTTP status is checked, the body is bounded while it is received, and every failure is said
/// in the session (``AdBeaconingSession/latestError``) without stopping the polling.
///
/// ```swift
/// let poller = AdMetadataPoller(url: metadataURL, format: .harmonic, session: session, transport: transport)
/// poller.start()
/// ```
@MainActor
public final class AdMetadataPoller {
    private let url: URL
    private let format: AdMetadataFormat
    private let session: AdBeaconingSession
    private let transport: any HTTPTransport
    private let clock: any Clock<Duration>
    private let limits: AdMetadataLimits
    /// The time between polls (Harmonic's `metadataUpdateInterval`).
    public var interval: Duration
    /// The deadline of each request.
    public var timeout: Duration = .seconds(5)
    private var loop: Task<Void, Never>?
    /// Polls made so far, and how many failed.
    public private(set) var polls = 0
    public private(set) var failures = 0

    public init(url: URL, format: AdMetadataFormat, session: AdBeaconingSession, transport: any HTTPTransport,
                interval: Duration = .seconds(4), clock: any Clock<Duration> = ContinuousClock(),
                limits: AdMetadataLimits = AdMetadataLimits()) {
        self.url = url
        self.format = format
        self.session = session
        self.transport = transport
        self.interval = interval
        self.clock = clock
        self.limits = limits
    }

    /// Starts polling: at once, then every ``interval``.
    public func start() {
        guard loop == nil else { return }
        let stopwatch = Stopwatch(clock: clock)
        loop = Task { [weak self] in
            while !Task.isCancelled {
                guard let wait = await self?.pollThenInterval() else { return }
                do { try await stopwatch.sleep(for: wait) } catch { return }
            }
        }
    }

    private func pollThenInterval() async -> Duration {
        await poll()
        return interval
    }

    /// Stops polling.
    public func stop() {
        loop?.cancel()
        loop = nil
    }

    /// One poll: fetch, check, decode, apply. Returns the failure, if any (also said in the session).
    @discardableResult
    public func poll() async -> AdMetadataPollError? {
        polls += 1
        let result = await fetch()
        switch result {
        case .success(let metadata):
            session.apply(metadata)
            return nil
        case .failure(let error):
            failures += 1
            session.note(error)
            return error
        }
    }

    private func fetch() async -> Result<AdMetadata, AdMetadataPollError> {
        let response: HTTPResponse
        do {
            response = try await transport.send(HTTPRequest(url: url, timeout: timeout, maximumBodySize: limits.maximumBodyBytes))
        } catch .bodyTooLarge(let limit) {
            return .failure(.metadata(.bodyTooLarge(size: limit + 1, limit: limit)))
        } catch {
            return .failure(.transport(error.description))
        }
        guard response.isSuccess else { return .failure(.metadata(.httpStatus(response.status))) }
        do {
            return .success(try format.decode(response.body, limits: limits))
        } catch {
            return .failure(.metadata(error))
        }
    }
}
