public import Foundation
import PlaytraceCore
public import PlaytraceNetwork
public import PlaytracePlayer

/// Reads interstitial asset lists that an ad server answers in VAST — the common client-side insertion pattern —
/// and tracks their ads with an ``AdBeaconingSession``.
///
/// For each asset list whose body is XML: the VAST is parsed, its wrappers followed (``VASTResolver``), each ad's
/// first HLS media file becomes an asset of the interstitial, and the ads become a break of the session (``VASTAdBreak``)
/// on the interstitial's timeline, so that their events fire as the interstitial plays. Errors go to the whole
/// chain: 100–102 for a response that is not usable VAST (the interstitial is then cancelled), 301/302/303 from the
/// wrappers, 403 for an ad without an HLS media file (it is left out), and 405 later, when an asset fails to play.
///
/// ```swift
/// var configuration = HeadlessEngine.Configuration()
/// configuration.assetListReader = VASTAssetListReader(session: session, transport: transport)
/// ```
public struct VASTAssetListReader: InterstitialAssetListReader {
    public let session: AdBeaconingSession
    public var resolver: VASTResolver

    public init(session: AdBeaconingSession, transport: any HTTPTransport) {
        self.session = session
        resolver = VASTResolver(transport: transport)
    }

    /// The ID of the break the session tracks an interstitial's VAST ads under.
    public static func podID(of interstitial: InterstitialEvent) -> String { "vast:\(interstitial.id)" }

    public func assets(for interstitial: InterstitialEvent, listURL url: URL, body: [UInt8]) async throws -> [InterstitialAsset]? {
        guard Self.isXML(body) else { return nil }
        let podID = Self.podID(of: interstitial)
        let document: VASTDocument
        do {
            document = try resolver.parser.parse(Data(body))
        } catch {
            let report = VASTErrorReport(code: error.code, urls: [], message: "\(url.absoluteString): \(error.message)")
            let record = VASTChainRecord(podID: podID, interstitialID: interstitial.id,
                                         requests: [.init(url: url.absoluteString, depth: 0, failure: error.message)],
                                         ads: [], errors: [report])
            await MainActor.run {
                session.report([report], podID: podID)
                session.record(record)
            }
            throw error
        }
        let resolution = await resolver.resolve(document, base: url)
        var errors = resolution.errors
        var playable: [(ad: ResolvedVASTAd, duration: MediaTime, mediaURL: String?)] = []
        var leftOut: [VASTChainRecord.Ad] = []
        for ad in resolution.ads {
            guard let media = ad.hlsMediaFile, let mediaURL = URL(string: media.url, relativeTo: url)?.absoluteURL else {
                errors.append(VASTErrorReport(code: .noSupportedMediaFile, urls: ad.errorURLs,
                                              message: "ad \(ad.ad.id ?? "?") has no HLS media file: left out"))
                leftOut.append(.init(id: ad.ad.id ?? "?", chainURLs: ad.chainURLs, leftOut: true))
                continue
            }
            playable.append((ad, ad.linear?.duration ?? 0, mediaURL.absoluteString))
        }
        let ads = playable
        let requests = [VASTResolution.Fetch(url: url.absoluteString, depth: 0, failure: nil)] + resolution.fetches
        let reported = errors
        let omitted = leftOut
        await MainActor.run {
            session.report(reported, podID: podID)
            let start = session.adTimelinePosition(of: interstitial)
            let adBreak = VASTAdBreak(id: podID, start: start ?? .zero, ads: ads)
            // The IDs the session tracks the interstitial's ads under, in the chain's order.
            let assets = zip(adBreak.pod.ads, ads).map { VASTChainRecord.Ad(id: $0.id, chainURLs: $1.ad.chainURLs, leftOut: false) }
            session.record(VASTChainRecord(podID: podID, interstitialID: interstitial.id, requests: requests,
                                           ads: assets + omitted, errors: reported))
            if start != nil {
                session.track(adBreak)
            } else {
                session.note(VASTParseError(.undefined, "interstitial \(interstitial.id) has no date on the ad timeline: its VAST ads are played untracked"))
            }
        }
        return ads.map { entry in
            InterstitialAsset(url: entry.mediaURL ?? "", duration: entry.duration > .zero ? entry.duration : nil)
        }
    }

    /// Whether a body is XML (its first character other than a space or a byte-order mark is `<`).
    ///
    /// Inlinable, so that it is specialized where it is called (unspecialized generic code instantiates metadata
    /// and looks up conformances at run time, a fraction of a millisecond at a command's start).
    @inlinable public static func isXML(_ body: some Collection<UInt8>) -> Bool {
        var rest = body[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        return rest.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "<")
    }
}
