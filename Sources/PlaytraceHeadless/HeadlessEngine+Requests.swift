import Foundation
import PlaytraceCore
import PlaytraceNetwork
import PlaytracePlayer

/// How hard a request is retried before its failure goes to the caller.
enum RetryPolicy {
    /// Every retry the configuration allows: nothing else can take over.
    case standard
    /// Another variant can take over: a 4xx status (other than 408 and 429) or a timeout is given up at once
    /// (neither heals by asking again, and a timeout has used its time already), anything else is retried once.
    case failFast
}

extension HeadlessEngine {
    /// Requests part of a resource with a `Range` header when it has a byte range; a server that ignores the
    /// header and sends the whole resource is answered by keeping only the range.
    func fetch(_ resource: ResourceLocation, kind: RequestRecord.Kind, variant: Int?,
               policy: RetryPolicy = .standard) async throws -> HTTPResponse {
        guard let range = resource.byteRange, let offset = range.offset else {
            return try await fetch(resource.url, kind: kind, variant: variant, policy: policy)
        }
        // A range past 2^63 bytes (the playlist's parser listed it) cannot be asked for: the segment cannot be had.
        guard let last = offset.addingChecked(max(range.length, 1) - 1) else {
            throw HTTPTransportError.invalidURL("\(resource.url.absoluteString) (a byte range that ends past 2^63 bytes)")
        }
        var response = try await fetch(resource.url, kind: kind, variant: variant,
                                       headers: [("Range", "bytes=\(offset)-\(last)")], policy: policy)
        if response.status == 200, response.body.count > range.length {
            response.body = Array(response.body.dropFirst(offset).prefix(range.length))
        }
        return response
    }

    /// Sends a request with its deadline kept on the engine's clock (a test clock in tests; the transport's own,
    /// real-time deadline stays behind it): whichever of the response and the deadline comes first wins, and the
    /// other is cancelled.
    private func send(_ request: HTTPRequest) async -> Result<HTTPResponse, HTTPTransportError> {
        let transport = self.transport
        let stopwatch = self.stopwatch
        return await withTaskGroup(of: Result<HTTPResponse, HTTPTransportError>?.self) { group in
            group.addTask {
                do throws(HTTPTransportError) {
                    return .success(try await transport.send(request))
                } catch {
                    return .failure(error)
                }
            }
            group.addTask {
                do {
                    try await stopwatch.sleep(for: request.timeout)
                    return .failure(.timeout)
                } catch {
                    return nil  // cancelled: the response came first
                }
            }
            var outcome: Result<HTTPResponse, HTTPTransportError> = .failure(.cancelled)
            for await result in group {
                guard let result else { continue }
                outcome = result
                break
            }
            group.cancelAll()
            return outcome
        }
    }

    /// The deadline of a request of this kind: sized to the target duration once it is known.
    func timeout(for kind: RequestRecord.Kind) -> Duration {
        let target = timeline.targetDuration.seconds
        // The steering manifest is first asked for before startup: it may not hold startup up for long.
        guard target > 0 else {
            return kind == .steeringManifest || kind == .clock ? configuration.minimumPlaylistTimeout : configuration.requestTimeout
        }
        switch kind {
        case .mediaPlaylist, .steeringManifest, .manifest, .clock:
            let sized = Duration.seconds(target * configuration.playlistTimeoutTargetDurations)
            return min(configuration.requestTimeout, max(configuration.minimumPlaylistTimeout, sized))
        case .segment, .initializationSection, .key, .segmentIndex:
            return max(configuration.requestTimeout, .seconds(target * configuration.segmentTimeoutTargetDurations))
        default:
            return configuration.requestTimeout
        }
    }

    /// Requests a URL, retrying failures (no response, or an error status) with doubling delays on the engine's
    /// clock, as `policy` allows. A client error (4xx but 408 and 429: 404, 410, 403…) is never retried: asking again
    /// does not heal it (hls.js and ExoPlayer fail over or skip at once too). Every attempt is reported as a
    /// ``RequestRecord``; the first failed attempt that is retried is one non-fatal error (not one per attempt), and
    /// the last one an error thrown to the caller (marked fatal: the caller decides whether it is, by failing over
    /// or giving up).
    func fetch(_ url: URL, kind: RequestRecord.Kind, variant: Int?, method: String = "GET",
               headers: [(name: String, value: String)] = [], policy: RetryPolicy = .standard) async throws
        -> HTTPResponse
    {
        var attempt = 0
        let deadline = timeout(for: kind)
        while true {
            attempt += 1
            transfers.inFlight += 1
            transfers.requests += 1
            let started = stopwatch.elapsed
            let result = await send(HTTPRequest(method: method, url: url, headers: headers, timeout: deadline))
            transfers.inFlight -= 1
            let attemptResult = AttemptResult(url: url, kind: kind, variant: variant, attempt: attempt, started: started)
            switch try settle(result, of: attemptResult, policy: policy) {
            case .response(let response): return response
            case .retry(let delay): try await stopwatch.sleep(for: delay)
            }
        }
    }

    /// One attempt at a request, as ``settle(_:of:policy:)`` reports it.
    private struct AttemptResult {
        var url: URL
        var kind: RequestRecord.Kind
        var variant: Int?
        var attempt: Int
        var started: Duration
    }

    private enum Settlement {
        case response(HTTPResponse)
        case retry(after: Duration)
    }

    /// What an attempt's result means: the response, a retry after a delay, or the error thrown to the caller. It
    /// reports the attempt (a ``RequestRecord``, and the first retried failure as a non-fatal error). Synchronous and
    /// out of line, so that its locals stay off the async frames that every request holds while it waits.
    @inline(never)
    private func settle(_ result: Result<HTTPResponse, HTTPTransportError>, of request: AttemptResult,
                        policy: RetryPolicy) throws -> Settlement
    {
        let (url, kind, attempt) = (request.url, request.kind, request.attempt)
        let error: EngineError
        // A status that asking again does not heal; and whether a retry is worth it when another variant could
        // take over.
        var isPermanent = false
        var isWorthRetrying = true
        switch result {
        case .success(let response):
            transfers.bytesReceived += response.body.count
            emit(.request(RequestRecord(
                kind: kind, url: url.absoluteString, status: response.status, bytes: response.body.count,
                timeToFirstByte: response.timing.timeToFirstByte, duration: response.timing.duration,
                attempt: attempt, error: response.isSuccess ? nil : "HTTP \(response.status)",
                variantIndex: request.variant)))
            if response.isSuccess { return .response(response) }
            error = EngineError(kind: .httpStatus, message: "HTTP \(response.status) for the \(kind)",
                                isFatal: false, httpStatus: response.status, url: url.absoluteString)
            isPermanent = (400..<500).contains(response.status) && ![408, 429].contains(response.status)
            isWorthRetrying = !isPermanent
        case .failure(.cancelled):
            throw CancellationError()
        case .failure(let failure):
            emit(.request(RequestRecord(
                kind: kind, url: url.absoluteString, status: nil, bytes: 0, timeToFirstByte: nil,
                duration: stopwatch.elapsed - request.started, attempt: attempt, error: failure.description,
                variantIndex: request.variant)))
            error = EngineError(kind: .network, message: failure.description, isFatal: false, url: url.absoluteString)
            isWorthRetrying = failure != .timeout
        }
        try Task.checkCancellation()
        let retries = switch policy {
        case _ where isPermanent: 0
        case .standard: configuration.maximumRetries
        case .failFast: isWorthRetrying ? min(1, configuration.maximumRetries) : 0
        }
        guard attempt <= retries else {
            var fatal = error
            fatal.isFatal = true
            if attempt > 1 { fatal.message += " (after \(attempt) attempts)" }
            throw fatal
        }
        lastError = error
        if attempt == 1 {
            var warning = error
            warning.message += "; retrying"
            emit(.error(warning))
            logger.warning("request failed, retrying", metadata: ["url": "\(url)"])
        } else {
            logger.debug("request failed again, retrying", metadata: ["url": "\(url)", "attempt": "\(attempt)"])
        }
        return .retry(after: configuration.retryDelay * (1 << min(attempt - 1, 16)))
    }
}
