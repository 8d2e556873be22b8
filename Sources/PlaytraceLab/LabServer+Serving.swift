import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PlaytraceCore

/// How the lab answers: its sinks (beacons, telemetry), SSAI session set-ups and resources, each with the faults
/// injected for its path, and every request logged.
extension LabServer {
    /// The sink: accepts any body (16 MB at most) with 202, or fails as the faults for its path say (delay, status,
    /// dropped connection), and keeps what it accepted or refused.
    func receive(_ request: Request, connection: any Channel) async throws -> Response {
        let path = request.uri.path
        let receivedAt = stopwatch.elapsed
        let body = try await request.body.collect(upTo: 16 << 20)
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        let (kinds, status, drop) = try await sinkFaults(for: path, answering: 202, connection: connection)
        requests.append(LabRequest(method: request.method.rawValue, path: path, query: request.uri.query, status: status,
                                   bytes: body.readableBytes, receivedAt: receivedAt, faults: kinds.map { "\($0)" },
                                   idempotencyKey: headers["idempotency-key"], client: Self.client(request.headers)))
        sink.append(SinkDelivery(path: path, query: request.uri.query, headers: headers,
                                 body: Array(body.readableBytesView), status: drop ? 0 : status))
        if drop { throw LabFaultError.droppedConnection }
        return Self.faultResponse(status: status, kinds: kinds)
    }

    /// A sink's answer: its status, with the `Retry-After` header a fault asks for and the body a `.body` fault gives
    /// (a server's error message).
    private static func faultResponse(status: Int, kinds: [LabFault.Kind]) -> Response {
        var headers = HTTPFields()
        for case .retryAfter(_, let value) in kinds { headers[.retryAfter] = value }
        for case .body(let text) in kinds {
            return Response(status: HTTPResponse.Status(code: status), headers: headers,
                            body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        return Response(status: HTTPResponse.Status(code: status), headers: headers)
    }

    /// The beacon sink: answers every `GET /beacons/...` with 200 and an empty body, or as the faults for its path
    /// say, and records each hit with its query and arrival time.
    func receiveBeacon(_ request: Request, connection: any Channel) async throws -> Response {
        let path = request.uri.path
        let receivedAt = stopwatch.elapsed
        let (kinds, status, drop) = try await sinkFaults(for: path, answering: 200, connection: connection)
        requests.append(LabRequest(method: request.method.rawValue, path: path, query: request.uri.query, status: status,
                                   bytes: 0, receivedAt: receivedAt, faults: kinds.map { "\($0)" }, idempotencyKey: nil,
                                   client: Self.client(request.headers)))
        beacons.append(BeaconHit(path: path, query: request.uri.query, receivedAt: receivedAt, status: drop ? 0 : status))
        if drop { throw LabFaultError.droppedConnection }
        return Self.faultResponse(status: status, kinds: kinds)
    }

    /// The faults for a sink's path, applied: a delay is waited out; the status to answer and whether to drop the
    /// connection instead are returned.
    private func sinkFaults(for path: String, answering success: Int,
                            connection: any Channel) async throws -> (kinds: [LabFault.Kind], status: Int, drop: Bool) {
        var status = success
        var drop = false
        let kinds = faults.take(for: path)
        for kind in kinds {
            switch kind {
            case .delay(let milliseconds): try await park(for: .milliseconds(milliseconds), connection: connection)
            case .status(let code), .retryAfter(let code, _): status = code
            case .dropConnection: drop = true
            case .throttle, .body: break
            }
        }
        return (kinds, status, drop)
    }

    /// What a request says of its client: its `User-Agent`, and its custom (`X-`) headers.
    static func client(_ fields: HTTPFields) -> (userAgent: String?, custom: [String: String]?) {
        var custom: [String: String] = [:]
        for field in fields where field.name.canonicalName.hasPrefix("x-") {
            custom[field.name.canonicalName] = field.value
        }
        return (fields[.userAgent], custom.isEmpty ? nil : custom)
    }

    /// An SSAI session initialisation (Harmonic's `GET …?initSession=true` or `POST`, MediaTailor's `POST`): answered
    /// with the session's URLs as JSON, unless a fault for the path says otherwise.
    func sessionInit(_ request: Request, connection: any Channel,
                             answer: (Double) -> String) async throws -> Response {
        let path = request.uri.path
        let (kinds, status, drop) = try await sinkFaults(for: path, answering: 200, connection: connection)
        requests.append(LabRequest(method: request.method.rawValue, path: path, query: request.uri.query, status: status,
                                   bytes: 0, receivedAt: stopwatch.elapsed, faults: kinds.map { "\($0)" }, idempotencyKey: nil,
                                   client: Self.client(request.headers)))
        if drop { throw LabFaultError.droppedConnection }
        guard status == 200 else { return Response(status: HTTPResponse.Status(code: status)) }
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: .ok, headers: headers,
                        body: .init(byteBuffer: ByteBuffer(string: answer(stopwatch.elapsedSeconds))))
    }

    /// The `manifestParams` of a MediaTailor session request (strings only); `nil` when the body is not a JSON
    /// object. An empty body is an empty request.
    static func mediaTailorManifestParams(_ body: [UInt8]) -> [String: String]? {
        guard !body.isEmpty else { return [:] }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] else { return nil }
        return (object["manifestParams"] as? [String: Any] ?? [:]).compactMapValues { $0 as? String }
    }

    /// Serves a resource: logs the request, applies the faults for its path (a delay waited out, a status, a body
    /// instead of the resource, a dropped connection, a throttled transfer), answers a `Range` request in part, and
    /// 404 when `lookup` finds nothing.
    func serveMedia(_ request: Request, connection: any Channel, lookup: () -> LabContent?) async throws -> Response {
        let path = request.uri.path
        let receivedAt = stopwatch.elapsed
        let kinds = faults.take(for: path)
        var log = LabRequest(method: request.method.rawValue, path: path, query: request.uri.query, status: 200,
                             bytes: 0, receivedAt: receivedAt, faults: kinds.map { "\($0)" },
                             idempotencyKey: HTTPField.Name("Idempotency-Key").flatMap { request.headers[$0] },
                             client: Self.client(request.headers))
        defer { requests.append(log) }
        for kind in kinds {
            if case .delay(let milliseconds) = kind { try await park(for: .milliseconds(milliseconds), connection: connection) }
        }
        let replacement = kinds.lazy.compactMap { kind -> String? in if case .body(let text) = kind { text } else { nil } }.first
        for kind in kinds {
            if case .status(let code) = kind {
                // With a body fault too, the status comes with that body (a server's error message).
                log.status = code
                return Response(status: HTTPResponse.Status(code: code),
                                body: replacement.map { .init(byteBuffer: ByteBuffer(string: $0)) } ?? .init())
            }
        }
        guard let (content, contentType) = replacement.map({ (ByteBuffer(string: $0), "application/octet-stream") })
                ?? lookup() else {
            log.status = 404
            return Response(status: .notFound, body: .init(byteBuffer: ByteBuffer(string: "no such lab resource\n")))
        }
        var headers = HTTPFields()
        headers[.contentType] = contentType
        headers[.cacheControl] = "no-cache"
        headers[.acceptRanges] = "bytes"
        var body = content
        var status = HTTPResponse.Status.ok
        if let rangeHeader = request.headers[.range] {
            log.range = rangeHeader
            guard let range = Self.byteRange(rangeHeader, size: body.readableBytes),
                  let slice = body.getSlice(at: body.readerIndex + range.lowerBound, length: range.count)
            else {
                log.status = 416
                headers[.contentRange] = "bytes */\(body.readableBytes)"
                return Response(status: .rangeNotSatisfiable, headers: headers)
            }
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(body.readableBytes)"
            body = slice
            status = .partialContent
            log.status = 206
        }
        log.bytes = body.readableBytes
        let drop = kinds.contains(.dropConnection)
        let throttle = kinds.compactMap { kind -> Int? in
            if case .throttle(let rate) = kind { return rate } else { return nil }
        }.min()
        let payload = body
        guard drop || throttle != nil else {
            return Response(status: status, headers: headers, body: .init(byteBuffer: payload))
        }
        let total = payload.readableBytes
        let responseBody = ResponseBody(contentLength: total) { writer in
            var remaining = payload
            if drop {
                if let half = remaining.readSlice(length: total / 2) { try await writer.write(half) }
                throw LabFaultError.droppedConnection
            }
            let rate = max(1, throttle ?? Int.max)
            let chunkSize = max(1024, min(64 * 1024, rate / 10))
            while remaining.readableBytes > 0 {
                let size = min(chunkSize, remaining.readableBytes)
                guard let chunk = remaining.readSlice(length: size) else { break }
                try await self.park(for: .seconds(Double(size) / Double(rate)), connection: connection)
                try await writer.write(chunk)
            }
            try await writer.finish(nil)
        }
        return Response(status: status, headers: headers, body: responseBody)
    }

    /// The bytes a single `Range: bytes=first-last` (or `first-`, or `-suffix`) asks for, within `size`.
    static func byteRange(_ header: String, size: Int) -> Range<Int>? {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let spec = header.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
        guard spec.count == 2 else { return nil }
        let first = Int(spec[0].trimmingCharacters(in: .whitespaces))
        let last = Int(spec[1].trimmingCharacters(in: .whitespaces))
        switch (first, last) {
        case let (first?, last?) where first <= last && first < size: return first..<min(last + 1, size)
        case let (first?, nil) where first < size && spec[1].isEmpty: return first..<size
        case let (nil, suffix?) where spec[0].isEmpty && suffix > 0: return max(0, size - suffix)..<size
        default: return nil
        }
    }

    static func json(_ value: some Encodable) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(value)) ?? Data("[]".utf8)
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

enum LabFaultError: Error {
    case droppedConnection
}

/// The JSON form of a fault in the lab's API:
/// `{"path": "/vod/2/", "type": "status", "value": 404, "count": 3}`; types: `delay` (value in ms), `status`,
/// `drop`, `throttle` (value in bytes per second), `body` (`"body": "…"`: answered instead of the resource).
struct FaultDescription: Codable, Sendable {
    var path: String?
    var type: String
    var value: Int?
    var count: Int?
    var body: String?

    init(_ fault: LabFault) {
        path = fault.pathContains
        count = fault.remaining
        switch fault.kind {
        case .delay(let milliseconds): type = "delay"; value = milliseconds
        case .status(let code): type = "status"; value = code
        case .retryAfter(let code, let after): type = "retry-after"; value = code; body = after
        case .dropConnection: type = "drop"; value = nil
        case .throttle(let rate): type = "throttle"; value = rate
        case .body(let text): type = "body"; body = text
        }
    }

    var fault: LabFault? {
        let kind: LabFault.Kind
        switch (type, value) {
        case ("delay", let milliseconds?) where milliseconds >= 0: kind = .delay(milliseconds: milliseconds)
        case ("status", let code?) where (100...599).contains(code): kind = .status(code)
        case ("retry-after", let code?) where (100...599).contains(code):
            guard let body else { return nil }
            kind = .retryAfter(status: code, value: body)
        case ("drop", _): kind = .dropConnection
        case ("throttle", let rate?) where rate > 0: kind = .throttle(bytesPerSecond: rate)
        case ("body", _):
            guard let body else { return nil }
            kind = .body(body)
        default: return nil
        }
        return LabFault(pathContains: path ?? "", kind: kind, remaining: count)
    }
}
