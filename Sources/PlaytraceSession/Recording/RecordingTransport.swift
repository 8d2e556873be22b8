public import PlaytraceCore
public import PlaytraceNetwork
import DequeModule
import Synchronization

/// A transport that passes every request on and notes it for the session summary (``SessionSummary/Requests``),
/// timed from the session's start: its status or error, timing and size. Bounded: it keeps the counts of every
/// request, and the list only up to the summary's limits.
public final class RecordingTransport: HTTPTransport {
    private let inner: any HTTPTransport
    /// The session's stopwatch: every time in the summary counts from its start.
    public let stopwatch: Stopwatch
    private struct Log {
        var requests = SessionSummary.Requests()
        var failuresListed = 0
        var successesListed = 0
        /// The latest successes, when the limits keep those rather than the first ones.
        var latest = Deque<SessionSummary.Request>()
    }

    private let log = Mutex(Log())
    private let limits: SessionRecordLimits

    /// The longest URL or error text kept (a URL of any length can be requested; the record stays small).
    static let textLimit = 2_048

    /// - Parameters:
    ///   - inner: what sends the requests.
    ///   - stopwatch: the session's stopwatch, from whose start the requests are timed.
    ///   - limits: how many requests are listed.
    public init(_ inner: any HTTPTransport, stopwatch: Stopwatch, limits: SessionRecordLimits = .session) {
        self.inner = inner
        self.stopwatch = stopwatch
        self.limits = limits
    }

    public func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
        let start = stopwatch.elapsed
        var entry = SessionSummary.Request(atSeconds: start.seconds, method: request.method,
                                           url: Self.bounded(URLRedaction.redacting(request.url.absoluteString)), durationMilliseconds: 0, bytes: 0)
        do {
            let response = try await inner.send(request)
            entry.status = response.status
            entry.timeToFirstByteMilliseconds = response.timing.timeToFirstByte.seconds * 1000
            entry.durationMilliseconds = response.timing.duration.seconds * 1000
            entry.bytes = response.body.count
            record(entry)
            return response
        } catch {
            entry.error = Self.bounded(URLRedaction.redacting(error.description))
            entry.durationMilliseconds = (stopwatch.elapsed - start).seconds * 1000
            record(entry)
            throw error
        }
    }

    /// The requests so far, in the order they were made.
    var requests: SessionSummary.Requests {
        log.withLock { log in
            guard !log.latest.isEmpty else { return log.requests }
            var requests = log.requests
            requests.listed = (requests.listed + log.latest).sorted { $0.atSeconds < $1.atSeconds }
            return requests
        }
    }

    private func record(_ entry: SessionSummary.Request) {
        log.withLock { log in
            log.requests.total += 1
            log.requests.bytesReceived += entry.bytes
            if entry.isFailure {
                log.requests.failed += 1
                log.failuresListed += 1
            } else {
                log.successesListed += 1
            }
            if entry.isFailure {
                if log.failuresListed <= limits.failedRequests {
                    log.requests.listed.append(entry)
                } else {
                    log.requests.omitted += 1
                }
            } else if limits.keepsLatestRequests {
                log.latest.append(entry)
                if log.latest.count > limits.succeededRequests {
                    log.latest.removeFirst()
                    log.requests.omitted += 1
                }
            } else if log.successesListed <= limits.succeededRequests {
                log.requests.listed.append(entry)
            } else {
                log.requests.omitted += 1
            }
        }
    }

    private static func bounded(_ text: String) -> String {
        text.utf8.count <= textLimit ? text : String(decoding: text.utf8.prefix(textLimit), as: UTF8.self) + "…"
    }
}
