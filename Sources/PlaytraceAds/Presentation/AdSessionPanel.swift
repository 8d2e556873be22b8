import PlaytraceCore

/// What the seed's `SessionView` shows of an ad session, built once for every view of it (the terminal's live view,
/// the SwiftUI `SessionView`): the playhead, the time to the next break, the last interstitial's date, start and end,
/// and the session's media, manifest and metadata URLs.
///
/// ```swift
/// let panel = AdSessionPanel(session: session)
/// print(panel.playhead, panel.secondsToNextBreak.map { "next break in \($0) s" } ?? "no break ahead")
/// ```
public struct AdSessionPanel: Sendable, Hashable {
    /// Where the last interstitial stands.
    public struct Interstitial: Sendable, Hashable {
        /// Its event's date (ISO 8601).
        public var date: String?
        /// The primary's playhead where it began, and the interstitial time where it stopped (timecodes).
        public var start: String?
        public var end: String?
    }

    /// The playhead: the stream date under it (ISO 8601) on a program-date-time stream, else its media timecode.
    public var playhead: String
    /// Seconds until the next break on the ad timeline begins; `nil` when none is listed ahead.
    public var secondsToNextBreak: Double?
    /// The break under the playhead, and the ad with its place in the break (`2/3`).
    public var currentBreak: String?
    public var currentAd: String?
    /// The last interstitial, when the stream schedules interstitials.
    public var interstitial: Interstitial?
    /// The session's URLs: as given, after the redirect (with the session's ID), and its ad tracking metadata.
    public var mediaURL: String?
    public var manifestURL: String?
    public var metadataURL: String?

    /// The panel of `session` as it stands.
    @MainActor
    public init(session: AdBeaconingSession) {
        let player = session.playerObserver
        playhead = player.currentDate?.iso8601Milliseconds ?? player.playhead.timecode
        let position: AdTime? = switch session.timeline {
        case .programDateTime: player.currentDate.map(AdTime.init)
        case .mediaTime: AdTime(player.playhead)
        }
        secondsToNextBreak = position.flatMap { position in
            session.adPods.lazy.map(\.startTime).filter { $0 > position }.min().map { ($0 - position).seconds }
        }
        if let (pod, ad, index) = session.adAtPlayhead {
            currentBreak = pod.id
            currentAd = "\(ad.id) \(index + 1)/\(pod.ads.count)"
        }
        if player.hasInterstitialEvents {
            interstitial = Interstitial(date: player.interstitialDate?.iso8601Milliseconds,
                                        start: player.interstitialStartTime?.timecode,
                                        end: player.interstitialStopTime?.timecode)
        }
        mediaURL = (session.sessionInfo?.mediaUrl ?? session.mediaUrl)?.absoluteString
        manifestURL = session.sessionInfo?.manifestUrl.absoluteString
        metadataURL = session.sessionInfo?.adTrackingMetadataUrl.absoluteString
    }
}
