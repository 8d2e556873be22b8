import Foundation
import PlaytraceCore
import PlaytraceNetwork
import PlaytracePlayer

extension HeadlessEngine {
    /// Requests a URL, retrying failures (no response, or an error status) with doubling delays on the engine's
    /// clock. Every attempt is reported as a ``RequestRecord``; each failed attempt is a non-fatal error, and the
    /// last one a fatal error thrown to the caller.
    /// Requests part of a resource with a `Range` header when it has a byte range; a server that ignores the
    /// header and sends the whole resource is answered by keeping only the range.
    func fetch(_ resource: ResourceLocation, kind: RequestRecord.Kind, variant: Int?) async throws -> HTTPResponse {
        guard let range = resource.byteRange, let offset = range.offset else {
            return try await fetch(resource.url, kind: kind, variant: variant)
        }
        let last = offset + max(range.length, 1) - 1
        var response = try await fetch(resource.url, kind: kind, variant: variant,
                                       headers: [("Range", "bytes=\(offset)-\(last)")])
        if response.status == 200, response.body.count > range.length {
            response.body = Array(response.body.dropFirst(offset).prefix(range.length))
        }
        return response
    }

    func fetch(_ url: URL, kind: RequestRecord.Kind, variant: Int?,
               headers: [(name: String, value: String)] = []) async throws -> HTTPResponse {
        var attempt = 0
        while true {
            attempt += 1
            requestsInFlight += 1
            requestCount += 1
            let started = stopwatch.elapsed
            let result: Result<HTTPResponse, HTTPTransportError>
            do {
                result = .success(try await transport.send(
                    HTTPRequest(url: url, headers: headers, timeout: configuration.requestTimeout)))
            } catch {
                result = .failure(error)
            }
            requestsInFlight -= 1
            let error: EngineError
            switch result {
            case .success(let response):
                bytesReceived += response.body.count
                emit(.request(RequestRecord(
                    kind: kind, url: url.absoluteString, status: response.status, bytes: response.body.count,
                    timeToFirstByte: response.timing.timeToFirstByte, duration: response.timing.duration,
                    attempt: attempt, error: response.isSuccess ? nil : "HTTP \(response.status)", variantIndex: variant)))
                if response.isSuccess { return response }
                error = EngineError(kind: .httpStatus, message: "HTTP \(response.status) for a \(kind.rawValue) request",
                                    isFatal: false, httpStatus: response.status, url: url.absoluteString)
            case .failure(.cancelled):
                throw CancellationError()
            case .failure(let failure):
                emit(.request(RequestRecord(
                    kind: kind, url: url.absoluteString, status: nil, bytes: 0, timeToFirstByte: nil,
                    duration: stopwatch.elapsed - started, attempt: attempt, error: failure.description,
                    variantIndex: variant)))
                error = EngineError(kind: .network, message: failure.description, isFatal: false, url: url.absoluteString)
            }
            try Task.checkCancellation()
            guard attempt <= configuration.maximumRetries else {
                var fatal = error
                fatal.isFatal = true
                fatal.message += " (after \(attempt) attempts)"
                throw fatal
            }
            lastError = error
            emit(.error(error))
            logger.warning("request failed, retrying", metadata: ["url": "\(url)", "attempt": "\(attempt)"])
            try await stopwatch.sleep(for: configuration.retryDelay * (1 << min(attempt - 1, 16)))
        }
    }
}
