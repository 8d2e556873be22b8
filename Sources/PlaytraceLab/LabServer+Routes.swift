import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PlaytraceCore

/// The lab's request context: Hummingbird's core context and the request's connection, so that a response parked
/// on the lab's clock stops waiting when its client goes away (a request the client abandoned at its deadline is no
/// longer counted as parked).
struct LabRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

extension LabServer {
    func makeRouter() -> Router<LabRequestContext> {
        let router = Router(context: LabRequestContext.self)
        router.get("/lab/requests") { _, _ -> Response in
            Self.json(self.requests.document)
        }
        router.get("/lab/faults") { _, _ -> Response in
            Self.json(self.faults.active.map(FaultDescription.init))
        }
        router.post("/lab/faults") { request, context -> Response in
            let description = try await request.decode(as: FaultDescription.self, context: context)
            guard let fault = description.fault else {
                return Response(status: .badRequest, body: .init(byteBuffer: ByteBuffer(string: "unknown fault type\n")))
            }
            self.faults.add(fault)
            return Response(status: .created)
        }
        router.delete("/lab/faults") { _, _ -> Response in
            self.faults.clear()
            return Response(status: .noContent)
        }
        router.get("/lab/steering") { _, _ -> Response in
            Self.json(self.steering)
        }
        router.post("/lab/steering") { request, context -> Response in
            let steering = try await request.decode(as: LabSteering.self, context: context)
            guard !steering.priority.isEmpty, steering.timeToLive > 0 else {
                return Response(status: .badRequest, body: .init(byteBuffer: ByteBuffer(string: "priority must not be empty, timeToLive must be positive\n")))
            }
            self.steering = steering
            return Response(status: .noContent)
        }
        router.get("/lab/beacons") { _, _ -> Response in
            Self.json(self.beacons.document)
        }
        router.delete("/lab/beacons") { _, _ -> Response in
            self.beacons.clear()
            return Response(status: .noContent)
        }
        router.get("/beacons/**") { request, context -> Response in
            try await self.receiveBeacon(request, connection: context.channel)
        }
        // SSAI: the session's stream and metadata (GET), and Harmonic's session initialisation (POST).
        router.post("/ssai/**") { request, context -> Response in
            let path = request.uri.path
            if Self.harmonicSessionStream(path) != nil {
                return try await self.sessionInit(request, connection: context.channel) { _ in
                    LabSSAI.harmonicSession(serial: self.mintSession())
                }
            }
            if let stream = Self.mediaTailorSessionStream(path) {
                let body = try await request.body.collect(upTo: 1 << 20)
                guard let params = Self.mediaTailorManifestParams(Array(body.readableBytesView)) else {
                    return Response(status: .badRequest, body: .init(byteBuffer: ByteBuffer(string: "a JSON object is expected\n")))
                }
                return try await self.sessionInit(request, connection: context.channel) { elapsed in
                    LabSSAI(configuration: self.configuration).mediaTailorSessionAnswer(
                        stream, elapsed: elapsed, serial: self.mintSession(), manifestParams: params)
                }
            }
            return Response(status: .notFound)
        }
        router.get("/ssai/**") { request, context -> Response in
            try await self.serveMedia(request, connection: context.channel)
        }
        router.get("**") { request, context -> Response in
            try await self.serveMedia(request, connection: context.channel)
        }
        router.post("/sink/**") { request, context -> Response in
            try await self.receive(request, connection: context.channel)
        }
        return router
    }

    /// The sink: accepts any body (16 MB at most) with 202, or fails as the faults for its path say (delay, status,
    /// dropped connection), and keeps what it accepted or refused.
    private func receive(_ request: Request, connection: any Channel) async throws -> Response {
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
    private func receiveBeacon(_ request: Request, connection: any Channel) async throws -> Response {
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
    private func sessionInit(_ request: Request, connection: any Channel,
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

    /// The stream of a Harmonic session path (`/ssai/harmonic/<vod|live>/master.m3u8`).
    static func harmonicSessionStream(_ path: String) -> LabSSAI.Stream? {
        let parts = path.split(separator: "/")
        guard parts.count == 4, parts[0] == "ssai", parts[1] == "harmonic", parts[3] == "master.m3u8" else { return nil }
        return LabSSAI.Stream(rawValue: String(parts[2]))
    }

    /// The stream of a MediaTailor session path (`/ssai/mediatailor/v1/session/lab/origin/<vod|live>/master.m3u8`).
    static func mediaTailorSessionStream(_ path: String) -> LabSSAI.Stream? {
        let parts = path.split(separator: "/")
        guard parts.count == 8, parts[..<6].elementsEqual(["ssai", "mediatailor", "v1", "session", "lab", "origin"]),
              parts[7] == "master.m3u8" else { return nil }
        return LabSSAI.Stream(rawValue: String(parts[6]))
    }

    /// The `manifestParams` of a MediaTailor session request (strings only); `nil` when the body is not a JSON
    /// object. An empty body is an empty request.
    static func mediaTailorManifestParams(_ body: [UInt8]) -> [String: String]? {
        guard !body.isEmpty else { return [:] }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] else { return nil }
        return (object["manifestParams"] as? [String: Any] ?? [:]).compactMapValues { $0 as? String }
    }

    private func serveMedia(_ request: Request, connection: any Channel) async throws -> Response {
        let path = request.uri.path
        if Self.harmonicSessionStream(path) != nil, request.uri.queryParameters["initSession"] == "true" {
            return try await sessionInit(request, connection: connection) { _ in LabSSAI.harmonicSession(serial: self.mintSession()) }
        }
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
                ?? content(for: path) else {
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

    /// The body and content type for a lab path, or `nil` when there is no such resource.
    func content(for path: String) -> (ByteBuffer, String)? {
        var parts = path.split(separator: "/").map(String.init)
        let playlistType = "application/vnd.apple.mpegurl"
        if parts.first == "media" { return mediaFile(Array(parts.dropFirst())) }
        // A content-steering pathway serves the on-demand stream under its own prefix.
        if parts.count > 2, LabSteering.pathways.contains(parts[0]), parts[1] == "vod" { parts.removeFirst() }
        // The SSAI sessions' streams are the lab's on-demand and live streams under the sessions' prefixes.
        if parts.count > 3, parts[0] == "ssai", parts[1] == "harmonic", LabSSAI.Stream(rawValue: parts[2]) != nil {
            if parts.count == 4, parts[3] == "metadata" {
                let ssai = LabSSAI(configuration: configuration)
                return (ByteBuffer(string: ssai.harmonic(LabSSAI.Stream(rawValue: parts[2])!, elapsed: stopwatch.elapsedSeconds,
                                                         base: baseURL?.absoluteString ?? "")), "application/json")
            }
            parts.removeFirst(2)
        }
        if parts.count > 7, parts[..<6].elementsEqual(["ssai", "mediatailor", "v1", "master", "lab", "origin"]),
           LabSSAI.Stream(rawValue: parts[6]) != nil {
            parts.removeFirst(6)
        }
        if parts.count == 7, parts[..<6].elementsEqual(["ssai", "mediatailor", "v1", "tracking", "lab", "origin"]) {
            return LabSSAI(configuration: configuration)
                .mediaTailor(session: parts[6], elapsed: stopwatch.elapsedSeconds, base: baseURL?.absoluteString ?? "")
                .map { (ByteBuffer(string: $0), "application/json") }
        }
        if parts.first == "vast" {
            return LabVAST(configuration: configuration, base: baseURL?.absoluteString ?? "").document(parts)
                .map { (ByteBuffer(string: $0), "application/xml") }
        }
        switch parts.count {
        case 2 where parts[0] == "steering" && parts[1] == "master.m3u8":
            return (ByteBuffer(string: streams.steeringMultivariant()), playlistType)
        case 2 where parts[0] == "radio" && parts[1] == "master.m3u8":
            return (ByteBuffer(string: streams.radioMultivariant()), playlistType)
        case 2 where parts[0] == "steering" && parts[1] == "manifest.json":
            return (ByteBuffer(string: steering.manifest), "application/json")
        case 2 where parts[0] == "ads" && parts[1] == "assetlist.json":
            return (ByteBuffer(string: streams.assetList()), "application/json")
        case 3 where parts[0] == "ads" && parts[1] == "pods" && parts[2].hasSuffix(".json"):
            return LabInterstitials(configuration: configuration).assetList(id: String(parts[2].dropLast(5)))
                .map { (ByteBuffer(string: $0), "application/json") }
        case 2 where parts[1] == "master.m3u8":
            guard let kind = LabStreams.Kind(rawValue: parts[0]) else { return nil }
            return (ByteBuffer(string: streams.multivariant(kind)), playlistType)
        case 3 where parts[0] == "vod" && (parts[1] == "audio" || parts[1] == "subtitles"):
            if parts[2].hasSuffix(".m3u8") {
                return streams.renditionMedia(kind: parts[1], language: String(parts[2].dropLast(5)))
                    .map { (ByteBuffer(string: $0), playlistType) }
            }
            let isAudio = parts[1] == "audio"
            guard parts[2].hasSuffix(isAudio ? ".ts" : ".vtt") else { return nil }
            if let real = labMedia("\(parts[1])/\(parts[2])") { return real }
            let size = isAudio ? 128_000 * configuration.segmentDuration / 8 : 512
            return (SegmentPayload.bytes(path: path, size: size), isAudio ? "video/mp2t" : "text/vtt")
        case 3 where parts[0] == "long-live":
            // A live media playlist of any window length (1 to 1,000,000 segments), as plain as one can be.
            guard let count = Int(parts[1]), (1...1_000_000).contains(count) else { return nil }
            if parts[2] == "index.m3u8" {
                return (streams.longLiveMedia(count: count, elapsed: stopwatch.elapsedSeconds), playlistType)
            }
            guard let number = segmentNumber(parts[2]), number >= 0,
                  number <= LabStreams.longLiveLatest(count: count, elapsed: stopwatch.elapsedSeconds,
                                                      segmentDuration: configuration.segmentDuration) else { return nil }
            return (SegmentPayload.bytes(path: path, size: configuration.variants[0].bandwidth * configuration.segmentDuration / 8),
                    "video/mp2t")
        case 3 where parts[0] == "ads":
            guard let asset = Int(parts[1]) else { return nil }
            if parts[2] == "index.m3u8" {
                return streams.adMedia(asset: asset).map { (ByteBuffer(string: $0), playlistType) }
            }
            guard streams.adMedia(asset: asset) != nil, segmentNumber(parts[2]) != nil else { return nil }
            if let real = labMedia("ad/\(parts[2])") { return real }
            let bandwidth = configuration.variants[configuration.variants.count / 2].bandwidth
            return (SegmentPayload.bytes(path: path, size: bandwidth * configuration.segmentDuration / 8), "video/mp2t")
        case 3:
            guard let kind = LabStreams.Kind(rawValue: parts[0]), let variant = Int(parts[1]),
                  configuration.variants.indices.contains(variant)
            else { return nil }
            if parts[2] == "index.m3u8" {
                let text: String
                switch kind {
                case .vod: text = streams.vodMedia(variant: variant)
                case .interstitials:
                    text = LabInterstitials(configuration: configuration).media(variant: variant, base: baseURL?.absoluteString ?? "")
                case .vastInterstitials:
                    text = LabInterstitials(configuration: configuration, usesVAST: true)
                        .media(variant: variant, base: baseURL?.absoluteString ?? "")
                case .fmp4: text = streams.byteRangeMedia(variant: variant)
                case .live, .dvr: text = streams.liveMedia(kind, variant: variant, elapsed: stopwatch.elapsedSeconds)
                }
                return (ByteBuffer(string: text), playlistType)
            }
            if kind == .fmp4 {
                switch parts[2] {
                case "init.mp4": return (SegmentPayload.bytes(path: path, size: LabStreams.initializationSectionSize), "video/mp4")
                case "key.bin": return (SegmentPayload.bytes(path: "", size: LabStreams.keySize), "application/octet-stream")
                case "media.mp4":
                    let size = streams.segmentSize(variant: variant) * configuration.vodSegmentCount
                    return (SegmentPayload.bytes(path: path, size: size), "video/mp4")
                default: return nil
                }
            }
            guard let number = segmentNumber(parts[2]), segmentExists(kind, number) else { return nil }
            if kind == .live || kind == .dvr, let loop = configuration.liveLoopSegments,
               let (looped, type) = labMedia("content/\(variant)/seg\(number % loop).ts") {
                let ticks = UInt64(number / loop) * UInt64(loop * configuration.segmentDuration) * 90_000
                return (ByteBuffer(bytes: TransportStreamRetimer.retimed(Array(looped.readableBytesView), by: ticks)), type)
            }
            if kind != .live, kind != .dvr, let real = labMedia("content/\(variant)/\(parts[2])") { return real }
            let size = configuration.variants[variant].bandwidth * configuration.segmentDuration / 8
            return (SegmentPayload.bytes(path: path, size: size), "video/mp2t")
        default:
            return nil
        }
    }

    private func segmentNumber(_ name: String) -> Int? {
        guard name.hasPrefix("seg"), name.hasSuffix(".ts") else { return nil }
        return Int(name.dropFirst(3).dropLast(3))
    }

    private func segmentExists(_ kind: LabStreams.Kind, _ number: Int) -> Bool {
        guard number >= 0 else { return false }
        if kind == .vod { return number < configuration.vodSegmentCount }
        if kind == .interstitials || kind == .vastInterstitials { return number < configuration.interstitialStreamSegmentCount }
        let latest = Int((stopwatch.elapsedSeconds / Double(configuration.segmentDuration)).rounded(.down))
            + configuration.liveHistorySegments - 1
        return number <= latest
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

extension LabServer {
    /// The real form of one of the lab's own segments (`lab/` in the real media directory: the on-demand streams'
    /// content, their renditions, the interstitials' ad), when the directory has it; else the synthetic one serves.
    func labMedia(_ relativePath: String) -> (ByteBuffer, String)? {
        mediaFile(["lab"] + relativePath.split(separator: "/").map(String.init))
    }

    /// A file of the real media directory (``LabConfiguration/mediaDirectory``), by its path under it.
    func mediaFile(_ parts: [String]) -> (ByteBuffer, String)? {
        guard let directory = configuration.mediaDirectory, !parts.isEmpty,
              !parts.contains(where: { $0 == ".." || $0 == "." || $0.hasPrefix(".") }) else { return nil }
        let url = URL(fileURLWithPath: directory).appendingPathComponent(parts.joined(separator: "/"))
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        let type: String = switch url.pathExtension {
        case "m3u8": "application/vnd.apple.mpegurl"
        case "ts": "video/mp2t"
        case "mp4", "m4s": "video/mp4"
        case "vtt": "text/vtt"
        case "aac": "audio/aac"
        default: "application/octet-stream"
        }
        return (ByteBuffer(bytes: data), type)
    }
}
