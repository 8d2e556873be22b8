/// Why a break or an ad did not play out, as the session saw it: what turns a list of idle events into a reason
/// a person can act on.
public enum AdFate: Sendable, Hashable {
    /// The viewer skipped it (the interstitial it played in).
    case skipped
    /// The playhead reached it and the ad server had no ad to play (VAST error 303, "no ad").
    case noAd(code: Int)
    /// It could not be played: its interstitial failed, or playback failed while it played (the reason).
    case failed(String)
    /// The ad's media could not be played (the reason, an HTTP status say): the player passed over it.
    case mediaFailed(String)

    /// The words every view shows.
    public var description: String {
        switch self {
        case .skipped: "skipped by the viewer"
        case .noAd(let code): "reached: no ad (VAST \(code))"
        case .failed(let reason): "could not play: \(reason)"
        case .mediaFailed(let reason): "ad media failed: \(reason)"
        }
    }

    /// The fate in a few words, without its reason: beside what it explains, where the reason is said already.
    public var label: String {
        switch self {
        case .skipped: "skipped by the viewer"
        case .noAd: "no ad"
        case .failed: "could not play"
        case .mediaFailed: "ad media failed"
        }
    }
}

/// The fates of a session's breaks and ads (``AdBeaconingSession/fates``): absent for what played out, or was never
/// reached.
public struct AdFates: Sendable, Hashable {
    /// By break ID.
    public var pods: [String: AdFate]
    /// By break ID, then ad ID.
    public var ads: [String: [String: AdFate]]

    public init(pods: [String: AdFate] = [:], ads: [String: [String: AdFate]] = [:]) {
        self.pods = pods
        self.ads = ads
    }

    /// The fate of an ad of a break.
    public func ad(_ adID: String, in podID: String) -> AdFate? { ads[podID]?[adID] }
}
