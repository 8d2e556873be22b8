public import Foundation

/// The URLs of an SSAI session (Harmonic's `SessionInfo`).
public struct SessionInfo: Sendable, Hashable, Codable {
    /// When the session was set up, ISO 8601.
    public var localSessionId: String
    /// The URL the app gave.
    public var mediaUrl: URL
    /// The playlist to play, with the session's identifier.
    public var manifestUrl: URL
    /// Where the ad metadata is polled.
    public var adTrackingMetadataUrl: URL
    /// Which step gave them: `initSession GET`, `initSession POST` or `playlist` (Harmonic), `session POST`
    /// (MediaTailor).
    public var obtainedBy: String

    public init(localSessionId: String, mediaUrl: URL, manifestUrl: URL, adTrackingMetadataUrl: URL, obtainedBy: String) {
        self.localSessionId = localSessionId
        self.mediaUrl = mediaUrl
        self.manifestUrl = manifestUrl
        self.adTrackingMetadataUrl = adTrackingMetadataUrl
        self.obtainedBy = obtainedBy
    }

    /// Identifies the ad session in its beacons' delivery keys: a digest of the metadata URL, which carries the
    /// server's session identifier (Harmonic's `sessid`, MediaTailor's session path). Every run of one session — a
    /// restarted app resuming it — has the same, so that nothing it fired is fired again; two sessions never share
    /// one unless their servers give them the same metadata URL.
    public var id: String { StableDigest.hex(adTrackingMetadataUrl.absoluteString) }
}

/// Why a session could not be set up.
public enum AdSessionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The step's request failed.
    case transport(step: String, reason: String)
    /// The step's answer had another status than the one it needs.
    case httpStatus(step: String, status: Int)
    /// The step's answer was not the JSON it needs.
    case malformedResponse(step: String, reason: String)

    public var description: String {
        switch self {
        case .transport(let step, let reason): "\(step): \(reason)"
        case .httpStatus(let step, let status): "\(step): HTTP \(status)"
        case .malformedResponse(let step, let reason): "\(step): \(reason)"
        }
    }
}
