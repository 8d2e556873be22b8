public import Foundation
public import PlaytraceCore
public import PlaytraceNetwork

/// Harmonic's session set-up, in its three steps: `GET <mediaUrl>?initSession=true` (accepted only with status 200
/// and `{"manifestUrl", "trackingUrl"}`), then a `POST` with an empty body (same rule), then — or at once when init
/// requests are off — the playlist itself: the manifest URL is the media URL with the query of the playlist's first
/// URI (less `isstream`), and the metadata URL is that URL with its last path component replaced by `metadata`.
/// Relative URLs are resolved against the final URL after redirects (the reference resolves the playlist's against
/// the original URL). Each failed step is returned with the result, so that it can be said.
public struct HarmonicSessionSetup: Sendable {
    private let transport: any HTTPTransport
    private let timeout: Duration

    public init(transport: any HTTPTransport, timeout: Duration = .seconds(10)) {
        self.transport = transport
        self.timeout = timeout
    }

    /// Sets a session up; `failures` lists the steps that failed on the way (even when a later one succeeded).
    public func start(mediaUrl: URL, isInitRequest: Bool = true,
                      now: StreamDate = StreamDate(Date())) async -> (info: SessionInfo?, failures: [AdSessionError]) {
        var failures: [AdSessionError] = []
        let stamp = now.iso8601Milliseconds
        if isInitRequest {
            var components = URLComponents(url: mediaUrl, resolvingAgainstBaseURL: true)
            let items = components?.queryItems ?? []
            components?.queryItems = items + [URLQueryItem(name: "initSession", value: "true")]
            for (step, request) in [("initSession GET", HTTPRequest(url: components?.url ?? mediaUrl, timeout: timeout,
                                                                      maximumBodySize: 1 << 20)),
                                    ("initSession POST", HTTPRequest(method: "POST", url: mediaUrl, body: [], timeout: timeout,
                                                                       maximumBodySize: 1 << 20))] {
                switch await SessionAnswer.request(request, step: step, transport: transport) {
                case .success(let urls):
                    return (SessionInfo(localSessionId: stamp, mediaUrl: mediaUrl, manifestUrl: urls.manifest,
                                        adTrackingMetadataUrl: urls.tracking, obtainedBy: step), failures)
                case .failure(let error):
                    failures.append(error)
                }
            }
        }
        let step = "playlist"
        do {
            let response = try await transport.send(HTTPRequest(url: mediaUrl, timeout: timeout, maximumBodySize: 16 << 20))
            guard response.isSuccess else {
                failures.append(.httpStatus(step: step, status: response.status))
                return (nil, failures)
            }
            let manifest = Self.manifestURL(playlist: response.body, finalURL: response.url)
            return (SessionInfo(localSessionId: stamp, mediaUrl: mediaUrl, manifestUrl: manifest,
                                adTrackingMetadataUrl: Self.metadataURL(for: manifest), obtainedBy: step), failures)
        } catch {
            failures.append(.transport(step: step, reason: error.description))
            return (nil, failures)
        }
    }

    /// The media URL with the query of the playlist's first URI line (less `isstream`); the URL itself when the
    /// playlist has no URI with a query.
    public static func manifestURL(playlist: [UInt8], finalURL: URL) -> URL {
        let text = String(decoding: playlist.prefix(1 << 20), as: UTF8.self)
        guard let line = text.split(whereSeparator: \.isNewline).lazy
                .map({ $0.trimmingCharacters(in: .whitespaces) }).first(where: { !$0.isEmpty && !$0.hasPrefix("#") }),
              let uri = URL(string: line, relativeTo: finalURL),
              let items = URLComponents(url: uri, resolvingAgainstBaseURL: true)?.queryItems,
              var components = URLComponents(url: finalURL, resolvingAgainstBaseURL: true) else { return finalURL }
        let kept = items.filter { $0.name != "isstream" }
        guard !kept.isEmpty else { return finalURL }
        components.queryItems = kept
        return components.url ?? finalURL
    }

    /// The URL with its last path component replaced by `metadata`, its query kept.
    public static func metadataURL(for manifest: URL) -> URL {
        guard var components = URLComponents(url: manifest, resolvingAgainstBaseURL: true) else { return manifest }
        var path = components.path
        if let slash = path.lastIndex(of: "/") { path = String(path[...slash]) + "metadata" } else { path = "metadata" }
        components.path = path
        return components.url ?? manifest
    }
}
