public import Foundation
public import PlaytraceCore
public import PlaytraceNetwork
import PlaytracePlayer

/// AWS MediaTailor's client-side reporting: an explicit session initialised with a `POST` of
/// `{"adsParams", "manifestParams", "reportingMode": "client"}` to the session URL (`…/v1/session/…/<asset>.m3u8`),
/// answered with relative `manifestUrl` and `trackingUrl`; then the tracking JSON fetched at once and, for a live
/// stream, again every target duration — during breaks too, since ads are added while a break plays and the first
/// answer for a new break can be incomplete. An on-demand stream's tracking is fetched once, retried until it
/// succeeds.
///
/// `nextToken` paging is not used: every request asks for the whole window, which the merge reconciles (what a
/// token would leave out, the window still lists until its segments leave the playlist).
@MainActor
public final class MediaTailorAdProvider: AdMetadataProvider {
    private let transport: any HTTPTransport
    private let stopwatch: Stopwatch
    private let limits: AdMetadataLimits
    /// Values for the ad decision server's template (`[player_params.<key>]`), case-sensitive keys.
    public var adsParams: [String: String]
    /// Query parameters MediaTailor echoes on the manifest and tracking URLs.
    public var manifestParams: [String: String]
    /// `client` (the beacons are the player's to send) or `server` (MediaTailor fires the automatic ones itself).
    public var reportingMode = "client"
    /// The deadline of each request.
    public var requestTimeout: Duration = .seconds(5)
    /// How often a live stream's tracking is fetched while its target duration is not known yet.
    public var defaultLiveInterval: Duration = .seconds(4)
    /// The longest wait between two attempts after failures (the wait doubles from one second).
    public var maximumRetryDelay: Duration = .seconds(30)

    public init(transport: any HTTPTransport, adsParams: [String: String] = [:], manifestParams: [String: String] = [:],
                clock: any Clock<Duration> = ContinuousClock(), limits: AdMetadataLimits = AdMetadataLimits()) {
        self.transport = transport
        self.adsParams = adsParams
        self.manifestParams = manifestParams
        stopwatch = Stopwatch(clock: clock)
        self.limits = limits
    }

    /// The body of the session initialisation.
    public var sessionRequestBody: [UInt8] {
        let body: [String: Any] = ["adsParams": adsParams, "manifestParams": manifestParams, "reportingMode": reportingMode]
        return (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])).map(Array.init) ?? []
    }

    public func setUp(mediaUrl: URL, isInitRequest: Bool, now: StreamDate) async -> (info: SessionInfo?, failures: [AdSessionError]) {
        let step = "session POST"
        let request = HTTPRequest(method: "POST", url: mediaUrl, headers: [("Content-Type", "application/json")],
                                  body: sessionRequestBody, timeout: requestTimeout, maximumBodySize: 1 << 20)
        switch await SessionAnswer.request(request, step: step, transport: transport) {
        case .success(let urls):
            return (SessionInfo(localSessionId: now.iso8601Milliseconds, mediaUrl: mediaUrl, manifestUrl: urls.manifest,
                                adTrackingMetadataUrl: urls.tracking, obtainedBy: step), [])
        case .failure(let error):
            return (nil, [error])
        }
    }

    public func deliverMetadata(of info: SessionInfo, to session: AdBeaconingSession) async {
        let fetcher = AdMetadataFetcher(url: info.adTrackingMetadataUrl, format: .mediaTailor, transport: transport,
                                        timeout: requestTimeout, limits: limits)
        var failures = 0
        while !Task.isCancelled {
            let wait: Duration
            if await session.take(fetcher) {
                failures = 0
                // Whether to go on depends on the stream: known once the player has loaded it.
                let streamType = await session.knownStreamType()
                if streamType == .onDemand || Task.isCancelled { return }
                wait = session.playerObserver.targetDuration.map { Duration.saturating(milliseconds: $0.seconds * 1000) }
                    ?? defaultLiveInterval
            } else {
                failures += 1
                wait = min(.seconds(1) * (1 << min(failures - 1, 16)), maximumRetryDelay)
            }
            do { try await stopwatch.sleep(for: max(wait, .milliseconds(100))) } catch { return }
        }
    }
}
