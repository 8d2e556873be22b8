public import Foundation
public import PlaytraceCore
public import PlaytraceNetwork

/// Harmonic's ad sessions: set up in the three steps of ``HarmonicSessionSetup``, metadata polled from the session's
/// metadata URL at once, then every ``AdBeaconingSession/metadataUpdateInterval``, for as long as the session runs
/// (ads are added during a break: polling never pauses). A failed poll is said in the session; polling goes on.
@MainActor
public final class HarmonicAdProvider: AdMetadataProvider {
    private let transport: any HTTPTransport
    private let stopwatch: Stopwatch
    private let setUpTimeout: Duration
    private let limits: AdMetadataLimits
    /// The deadline of each metadata request.
    public var requestTimeout: Duration = .seconds(5)

    public init(transport: any HTTPTransport, clock: any Clock<Duration> = ContinuousClock(),
                setUpTimeout: Duration = .seconds(10), limits: AdMetadataLimits = AdMetadataLimits()) {
        self.transport = transport
        stopwatch = Stopwatch(clock: clock)
        self.setUpTimeout = setUpTimeout
        self.limits = limits
    }

    public func setUp(mediaUrl: URL, isInitRequest: Bool, now: StreamDate) async -> (info: SessionInfo?, failures: [AdSessionError]) {
        await HarmonicSessionSetup(transport: transport, timeout: setUpTimeout).start(mediaUrl: mediaUrl, isInitRequest: isInitRequest,
                                                                                     now: now)
    }

    public func deliverMetadata(of info: SessionInfo, to session: AdBeaconingSession) async {
        let fetcher = AdMetadataFetcher(url: info.adTrackingMetadataUrl, format: .harmonic, transport: transport,
                                        timeout: requestTimeout, limits: limits)
        while !Task.isCancelled {
            _ = await session.take(fetcher)
            do { try await stopwatch.sleep(for: session.metadataUpdateInterval) } catch { return }
        }
    }
}
