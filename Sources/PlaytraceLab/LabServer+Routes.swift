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

/// How a resource route finds what it serves: from the request's path and the route's parameters.
typealias LabLookup = @Sendable (_ path: String, _ parameters: Parameters) -> LabContent?

extension LabServer {
    /// The lab's routes, one per line. Hummingbird's router tries constant path components before parameters, so
    /// `/steering/master.m3u8` is the steering stream and `/vod/master.m3u8` the on-demand one; at the top level it
    /// does not fall back from a matching constant to the parameter, so no stream's name is a top-level constant. Resource routes go
    /// through ``serveMedia(_:connection:lookup:)``: logged, faults applied, 404 when the lookup finds nothing.
    func makeRouter() -> Router<LabRequestContext> {
        let router = Router(context: LabRequestContext.self)
        // The lab's own API: what it received, the faults it injects, its steering manifest.
        // Every request counted (`totals`), and the latest ones one by one (`?last=N`: only N of them).
        router.get("/lab/requests") { request, _ -> Response in
            guard let text = request.uri.queryParameters["last"] else { return Self.json(self.requests.document) }
            guard let last = Int(text), last >= 0 else {
                return Response(status: .badRequest, body: .init(byteBuffer: ByteBuffer(string: "last must be a whole number\n")))
            }
            return Self.json(self.requests.document(last: last))
        }
        router.get("/lab/faults") { _, _ in Self.json(self.faults.active.map(FaultDescription.init)) }
        router.post("/lab/faults") { request, context in try await self.addFault(request, context: context) }
        router.delete("/lab/faults") { _, _ -> Response in
            self.faults.clear()
            return Response(status: .noContent)
        }
        router.get("/lab/steering") { _, _ in Self.json(self.steering) }
        router.post("/lab/steering") { request, context in try await self.setSteering(request, context: context) }
        router.get("/lab/beacons") { _, _ in Self.json(self.beacons.document) }
        router.delete("/lab/beacons") { _, _ -> Response in
            self.beacons.clear()
            return Response(status: .noContent)
        }
        // Sinks: beacons (GET) and telemetry (POST).
        router.get("/beacons/**") { request, context in try await self.receiveBeacon(request, connection: context.channel) }
        router.post("/sink/**") { request, context in try await self.receive(request, connection: context.channel) }
        // SSAI session set-up, and each session's ad metadata.
        router.post("/ssai/harmonic/:stream/master.m3u8") { request, context in try await self.harmonicInit(request, context) }
        router.post("/ssai/mediatailor/v1/session/lab/origin/:stream/master.m3u8") { request, context in
            try await self.mediaTailorInit(request, context)
        }
        // DASH sessions: set up the same way, their MPDs served under the session's prefix.
        router.post("/ssai/harmonic/:stream/manifest.mpd") { request, context in
            try await self.harmonicInit(request, context, manifest: "manifest.mpd")
        }
        router.get("/ssai/harmonic/:stream/manifest.mpd") { request, context in
            if request.uri.queryParameters["initSession"] == "true" {
                return try await self.harmonicInit(request, context, manifest: "manifest.mpd")
            }
            return try await self.sessionManifest(request, context, location: false)
        }
        router.post("/ssai/mediatailor/v1/session/lab/origin/:stream/manifest.mpd") { request, context in
            try await self.mediaTailorInit(request, context, dash: true)
        }
        router.get("/ssai/mediatailor/v1/dash/lab/origin/:stream/manifest.mpd") { request, context in
            try await self.sessionManifest(request, context, location: true)
        }
        router.get("/ssai/harmonic/:stream/metadata") { request, context in
            // A DASH session's metadata (`format=dash`) also gives its times on the encoder's clock.
            let dash = request.uri.queryParameters["format"] == "dash"
            return try await self.serveMedia(request, connection: context.channel) {
                context.parameters.get("stream", as: LabSSAI.Stream.self).map { self.harmonicMetadata($0, dash: dash) }
            }
        }
        resource(router, "/ssai/mediatailor/v1/tracking/lab/origin/:session") { _, p in p.get("session").flatMap(self.mediaTailorTracking) }
        // The streams: at the origin, under each SSAI session's prefix, and on each content-steering pathway.
        streams(router, prefix: "", kinds: LabStreams.Kind.allCases)
        streams(router, prefix: "/ssai/harmonic", kinds: LabSSAI.Stream.allCases.map(\.kind), initialisesHarmonic: true)
        streams(router, prefix: "/ssai/mediatailor/v1/master/lab/origin", kinds: LabSSAI.Stream.allCases.map(\.kind))
        for pathway in LabSteering.pathways { streams(router, prefix: "/\(pathway)", kinds: [.vod]) }
        resource(router, "/steering/master.m3u8") { _, _ in Self.playlist(self.streams.steeringMultivariant()) }
        resource(router, "/steering/manifest.json") { _, _ in Self.json(text: self.steering.manifest) }
        resource(router, "/radio/master.m3u8") { _, _ in Self.playlist(self.streams.radioMultivariant()) }
        resource(router, "/long-live/:count/:file") { path, p in
            p.get("count", as: Int.self).flatMap { self.longLive(count: $0, file: p.get("file") ?? "", path: path) }
        }
        // Interstitials: asset lists, the ads' streams, and the VAST ad server.
        resource(router, "/ads/assetlist.json") { _, _ in Self.json(text: self.streams.assetList()) }
        resource(router, "/ads/pods/{pod}.json") { _, p in
            p.get("pod").flatMap { LabInterstitials(configuration: self.configuration).assetList(id: $0) }.map { Self.json(text: $0) }
        }
        resource(router, "/ads/:asset/:file") { path, p in
            p.get("asset", as: Int.self).flatMap { self.adAsset($0, file: p.get("file") ?? "", path: path) }
        }
        resource(router, "/vast/pods/{pod}.xml") { _, p in p.get("pod").flatMap(self.vast.pod).map(Self.xml) }
        resource(router, "/vast/chain/:levels/{pod}.xml") { _, p in
            p.get("levels", as: Int.self).flatMap { levels in p.get("pod").flatMap { self.vast.chain($0, levels: levels) } }.map(Self.xml)
        }
        resource(router, "/vast/loop/:side/{pod}.xml") { _, p in
            p.get("side").flatMap { side in p.get("pod").flatMap { self.vast.loop($0, side: side) } }.map(Self.xml)
        }
        // MPEG-DASH: the same content as MPDs (LabDASH), the lab's clock for UTCTiming, the segments.
        resource(router, "/dash/time") { _, _ in
            (ByteBuffer(string: self.dash.now(elapsed: self.stopwatch.elapsedSeconds).iso8601Milliseconds), "text/plain")
        }
        resource(router, "/dash/redundant/manifest.mpd") { _, _ in
            let locations = LabDASH.SessionManifest(segmentsBases: ["/dash/vod/", "/dash-backup/vod/"])
            return (ByteBuffer(string: self.dash.manifest(.vod, elapsed: self.stopwatch.elapsedSeconds, session: locations)),
                    LabDASH.contentType)
        }
        resource(router, "/dash/:stream/manifest.mpd") { _, p in
            p.get("stream").flatMap(LabDASH.Kind.init(rawValue:)).map {
                (ByteBuffer(string: self.dash.manifest($0, elapsed: self.stopwatch.elapsedSeconds)), LabDASH.contentType)
            }
        }
        // The segments, at the lab's main location and its backup one (`/dash/redundant/`'s second BaseURL).
        for location in ["/dash", "/dash-backup"] {
            resource(router, "\(location)/:stream/:representation/:file") { path, p in
                self.dashSegment(stream: p.get("stream") ?? "", representation: p.get("representation") ?? "",
                                 file: p.get("file") ?? "", path: path)
            }
        }
        // Real media files (generated by scripts/generate-media).
        resource(router, "/media/**") { _, p in self.mediaFile(p.getCatchAll().map(String.init)) }
        // Any other GET: logged, its faults applied (a `body` fault answers any path), else 404. (A middleware, added
        // last, so that it wraps the router's not-found answer alone: a `**` route beside the streams' parameter
        // would never be reached.)
        router.add(middleware: UnknownPaths(lab: self))
        return router
    }

    /// The routes of the lab's streams under `prefix`: each stream's multivariant playlist, its variants' playlists
    /// and segments, and the on-demand stream's renditions. Under Harmonic's prefix, `?initSession=true` on a
    /// multivariant playlist sets a session up.
    private func streams(_ router: Router<LabRequestContext>, prefix: String, kinds: [LabStreams.Kind],
                         initialisesHarmonic: Bool = false) {
        let kind: @Sendable (Parameters) -> LabStreams.Kind? = { parameters in
            parameters.get("stream", as: LabStreams.Kind.self).flatMap { kinds.contains($0) ? $0 : nil }
        }
        router.get("\(prefix)/:stream/master.m3u8") { request, context in
            if initialisesHarmonic, request.uri.queryParameters["initSession"] == "true",
               context.parameters.get("stream", as: LabSSAI.Stream.self) != nil {
                return try await self.sessionInit(request, connection: context.channel) { _ in
                    LabSSAI.harmonicSession(serial: self.mintSession())
                }
            }
            return try await self.serveMedia(request, connection: context.channel) { kind(context.parameters).map(self.multivariant) }
        }
        resource(router, "\(prefix)/:stream/:variant/:file") { path, p in
            guard let stream = kind(p), let variant = p.get("variant", as: Int.self) else { return nil }
            return self.variantResource(stream, variant: variant, file: p.get("file") ?? "", path: path)
        }
        guard kinds.contains(.vod) else { return }
        // Under the parameter rather than a constant `vod`: the router does not fall back from a constant that matches
        // at the top level to a parameter beside it.
        for type in ["audio", "subtitles"] {
            resource(router, "\(prefix)/:stream/\(type)/:file") { path, p in
                kind(p) == .vod ? self.rendition(type, file: p.get("file") ?? "", path: path) : nil
            }
        }
    }

    /// A GET route to a resource that `lookup` finds.
    private func resource(_ router: Router<LabRequestContext>, _ path: RouterPath, lookup: @escaping LabLookup) {
        router.get(path) { request, context in
            try await self.serveMedia(request, connection: context.channel) { lookup(request.uri.path, context.parameters) }
        }
    }

    private func addFault(_ request: Request, context: LabRequestContext) async throws -> Response {
        let description = try await request.decode(as: FaultDescription.self, context: context)
        guard let fault = description.fault else {
            return Response(status: .badRequest, body: .init(byteBuffer: ByteBuffer(string: "unknown fault type\n")))
        }
        faults.add(fault)
        return Response(status: .created)
    }

    private func setSteering(_ request: Request, context: LabRequestContext) async throws -> Response {
        let steering = try await request.decode(as: LabSteering.self, context: context)
        guard !steering.priority.isEmpty, steering.timeToLive > 0 else {
            return Response(status: .badRequest,
                            body: .init(byteBuffer: ByteBuffer(string: "priority must not be empty, timeToLive must be positive\n")))
        }
        self.steering = steering
        return Response(status: .noContent)
    }

    /// Harmonic's session initialisation by `POST`: the session's URLs as JSON (its manifest `manifest`, an MPD for a
    /// DASH session, of a stream that has one).
    private func harmonicInit(_ request: Request, _ context: LabRequestContext,
                              manifest: String = "master.m3u8") async throws -> Response {
        guard let stream = context.parameters.get("stream", as: LabSSAI.Stream.self),
              manifest == "master.m3u8" || LabSSAI.dashKind(of: stream) != nil else { return Response(status: .notFound) }
        return try await sessionInit(request, connection: context.channel) { _ in
            LabSSAI.harmonicSession(serial: self.mintSession(), manifest: manifest)
        }
    }

    /// A DASH session's MPD: the lab's presentation of the stream, its segments named from `/dash/<kind>/`, and with
    /// `location`, its own URL (query included) as its `Location`, as MediaTailor writes it.
    private func sessionManifest(_ request: Request, _ context: LabRequestContext, location: Bool) async throws -> Response {
        let kind = context.parameters.get("stream", as: LabSSAI.Stream.self).flatMap(LabSSAI.dashKind(of:))
        let own = "\(base)\(request.uri.path)" + (request.uri.query.map { "?\($0)" } ?? "")
        return try await serveMedia(request, connection: context.channel) {
            kind.map { kind in
                let session = LabDASH.SessionManifest(segmentsBases: ["/dash/\(kind.rawValue)/"], location: location ? own : nil)
                return (ByteBuffer(string: self.dash.manifest(kind, elapsed: self.stopwatch.elapsedSeconds, session: session)),
                        LabDASH.contentType)
            }
        }
    }

    /// MediaTailor's session initialisation: its `manifestParams` read from the JSON body, the session's URLs answered.
    private func mediaTailorInit(_ request: Request, _ context: LabRequestContext, dash: Bool = false) async throws -> Response {
        guard let stream = context.parameters.get("stream", as: LabSSAI.Stream.self),
              !dash || LabSSAI.dashKind(of: stream) != nil else { return Response(status: .notFound) }
        let body = try await request.body.collect(upTo: 1 << 20)
        guard let params = Self.mediaTailorManifestParams(Array(body.readableBytesView)) else {
            return Response(status: .badRequest, body: .init(byteBuffer: ByteBuffer(string: "a JSON object is expected\n")))
        }
        return try await sessionInit(request, connection: context.channel) { elapsed in
            LabSSAI(configuration: self.configuration).mediaTailorSessionAnswer(
                stream, elapsed: elapsed, serial: self.mintSession(), manifestParams: params, dash: dash)
        }
    }
}

/// The requests no route knows, served as a resource that does not exist (``LabServer/serveMedia(_:connection:lookup:)``).
private struct UnknownPaths: RouterMiddleware {
    typealias Context = LabRequestContext
    let lab: LabServer

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound && request.method == .get {
            return try await lab.serveMedia(request, connection: context.channel) { nil }
        }
    }
}
