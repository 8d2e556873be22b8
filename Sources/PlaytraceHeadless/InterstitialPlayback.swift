import PlaytraceCore
import PlaytraceHLSPlayback
import PlaytracePlayer

typealias ScheduledInterstitial = InterstitialSchedule.Entry

/// The next asset of an interstitial, downloaded while the current one plays so that the switch does not wait.
struct AssetPrefetch {
    var index: Int
    /// How much of it is downloaded, and whether all of it is.
    var buffered = MediaTime.zero
    var loaded = false
    /// Its error, said when it begins.
    var failure: String?
    var task: Task<Void, Never>?
}

/// The interstitial that plays: its assets as they become known, the one that plays and how much of it is
/// downloaded and played.
struct ActiveInterstitial {
    var scheduled: ScheduledInterstitial
    /// `nil` while the asset list is fetched.
    var assets: [InterstitialAsset]?
    var index = 0
    /// How much of the current asset is downloaded, and played.
    var buffered = MediaTime.zero
    var assetElapsed = MediaTime.zero
    /// Whether the current asset's segments are all downloaded.
    var assetLoaded = false
    /// Whether it plays: `false` while it is preloaded, before the playhead reaches it.
    var isStarted = false
    /// Where on its timeline playback joined it: past its start when playback started while it was under way
    /// (`_HLS_start_offset`).
    var joinOffset = MediaTime.zero
    /// Whether the current asset's playhead runs: `false` until its data is there (at its beginning, after a
    /// stall). The tick that finds the data starts it; the movement begins with the next, soon after.
    var isRunning = false
    /// The current asset's failure met while it was preloaded, said when the interstitial starts.
    var preloadFailure: String?
    /// What was played of the whole interstitial.
    var elapsed = MediaTime.zero
    /// Where the current asset begins on the interstitial's timeline: the durations of the assets before it.
    var assetOffset = MediaTime.zero
    /// The position on the interstitial's timeline.
    var position: MediaTime { assetOffset + assetElapsed }
    /// The next asset, downloaded once the current one is.
    var prefetch: AssetPrefetch?

    /// Cancels every download of the interstitial.
    func cancelDownloads() {
        task?.cancel()
        prefetch?.task?.cancel()
    }
    var task: Task<Void, Never>?
}

/// The primary's interstitials: those its playlists schedule, the one preloaded or playing, what was played of each,
/// and where a seek that had to wait for one goes when it ends.
struct InterstitialPlayback {
    /// The interstitials the playlists announce, by ID, and the one that plays.
    var schedule = InterstitialSchedule()
    /// The one preloaded (before the playhead reaches it) or playing.
    var active: ActiveInterstitial?
    /// Interstitials whose asset list could not be preloaded, by ID, with why and whether asking again could help
    /// (not after a 404 or a 410): none is preloaded twice, and one that cannot be had is skipped at once.
    var failedPreloads: [String: (outcome: InterstitialOutcome, isPermanent: Bool)] = [:]
    /// Where a seek asked while an interstitial had to play first (a JUMP-restricted one it crossed, or one that may
    /// not be skipped) goes when the interstitial ends.
    var seekAfter: MediaTime?
    /// What was played of each interstitial, on its timeline, by its ID.
    var playedRanges: [String: MediaTimeRangeSet] = [:]
    /// Identifies this playback of the primary to interstitial servers (`_HLS_primary_id`).
    let primaryID = RandomUUID.lowercasedString()

    /// The interstitial that plays (not one only preloaded).
    var playing: ActiveInterstitial? { active?.isStarted == true ? active : nil }
}
