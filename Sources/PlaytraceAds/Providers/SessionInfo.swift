public import Foundation

/// The URLs of an SSAI session (Harmonic's `SessionInfo`).
public struct SessionInfo: Sendable, Hashable {
    /// When the session was set up, ISO 8601.
    public var localSessionId: String
    /// The URL the app gave.
    public var mediaUrl: URL
    /// The playlist to play, with the session's identifier.
    public var manifestUrl: URL
    /// Where the ad metadata is polled.
    public var adTrackingMetadataUrl: URL
    /// Which step gave them: `initSession GET`, `initSession POST` or `playlist`.
    public var obtainedBy: String
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
