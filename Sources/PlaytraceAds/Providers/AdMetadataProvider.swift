public import Foundation
public import PlaytraceCore
public import PlaytracePlayer

/// Where an ad session comes from and how its metadata arrives: one provider per format (``HarmonicAdProvider``,
/// ``MediaTailorAdProvider``; VAST and HLS interstitials plug in the same way).
///
/// ``AdBeaconingSession/start(mediaUrl:provider:)`` asks the provider to set the session up, then to deliver
/// metadata for as long as the session runs.
@MainActor
public protocol AdMetadataProvider: AnyObject {
    /// Sets an ad session up for a media URL: the playlist to play and where its metadata is. Returns the failures
    /// met on the way too, also when a later step succeeded (each is said in the session).
    /// - Parameters:
    ///   - mediaUrl: the URL the app was given (a session URL, or the stream's own).
    ///   - isInitRequest: whether the provider may ask the server to initialise a session (Harmonic's first two
    ///     steps); a provider whose format has no other way ignores it.
    ///   - now: the date of the set-up (``SessionInfo/localSessionId``).
    func setUp(mediaUrl: URL, isInitRequest: Bool, now: StreamDate) async -> (info: SessionInfo?, failures: [AdSessionError])

    /// Delivers metadata to the session — ``AdBeaconingSession/apply(_:)`` for each response,
    /// ``AdBeaconingSession/note(_:)`` for each failure — until the task is cancelled or there is nothing more to
    /// fetch. The first request is made at once.
    func deliverMetadata(of info: SessionInfo, to session: AdBeaconingSession) async

    /// The ads a break carries in the media itself (`SignalledAdBreak.creativeSignaling`: SVTA2053 in a DASH
    /// segment's `emsg`), on the timeline of this provider's metadata, with what could not be read; `nil` when the
    /// provider does not read in-band signaling (the default: its metadata comes from its own server).
    func inbandMetadata(of adBreak: SignalledAdBreak) -> AdMetadata?
}

extension AdMetadataProvider {
    public func inbandMetadata(of adBreak: SignalledAdBreak) -> AdMetadata? { nil }
}

extension AdBeaconingSession {
    /// Fetches once and hands the outcome to the session; whether it succeeded.
    func take(_ fetcher: AdMetadataFetcher) async -> Bool {
        metadataRequestsInFlight += 1
        let result = await fetcher.fetch()
        metadataRequestsInFlight -= 1
        defer { metadataAttemptFinished() }
        switch result {
        case .success(let metadata):
            apply(metadata)
            return true
        case .failure(let error):
            metadataFailures += 1
            note(error)
            return false
        }
    }
}
