public import PlaytraceCore

/// An HLS interstitial as an engine plays it (rfc8216bis appendix D): ads, or any content, that live outside the
/// primary stream and play at a point of it while the primary waits.
public struct InterstitialEvent: Sendable, Hashable {
    /// The `EXT-X-DATERANGE` ID.
    public var id: String
    /// Where in the primary it plays.
    public var start: MediaTime
    /// Its `START-DATE`.
    public var startDate: StreamDate?
    /// Where the primary resumes, from `start` (`X-RESUME-OFFSET`); `nil`: after as much as the interstitial played.
    public var resumeOffset: MediaTime?
    /// The longest it may play (`X-PLAYOUT-LIMIT`).
    public var playoutLimit: MediaTime?
    /// `X-RESTRICT=SKIP`: the viewer may not skip it.
    public var isSkipRestricted: Bool
    /// `X-RESTRICT=JUMP`: a seek past it plays it first.
    public var isJumpRestricted: Bool

    public init(id: String, start: MediaTime, startDate: StreamDate? = nil, resumeOffset: MediaTime? = nil,
                playoutLimit: MediaTime? = nil, isSkipRestricted: Bool = false, isJumpRestricted: Bool = false) {
        self.id = id
        self.start = start
        self.startDate = startDate
        self.resumeOffset = resumeOffset
        self.playoutLimit = playoutLimit
        self.isSkipRestricted = isSkipRestricted
        self.isJumpRestricted = isJumpRestricted
    }
}

/// One asset of an interstitial: an HLS stream.
public struct InterstitialAsset: Sendable, Hashable {
    /// Its playlist, resolved.
    public var url: String
    /// Its duration, from the asset list or its playlist.
    public var duration: MediaTime?

    public init(url: String, duration: MediaTime?) {
        self.url = url
        self.duration = duration
    }
}

/// How an interstitial, or one of its assets, ended.
public enum InterstitialOutcome: Sendable, Hashable {
    /// Played to its end (or its playout limit).
    case played
    /// Skipped by the viewer.
    case skipped
    /// It could not be played: its asset list or the asset failed (the reason).
    case failed(String)
}

/// What plays of an interstitial now (``EngineSnapshot/interstitial``).
public struct InterstitialStatus: Sendable, Hashable {
    public var event: InterstitialEvent
    /// Its assets, once known (the asset list fetched).
    public var assets: [InterstitialAsset]
    /// The asset that plays, if one does.
    public var assetIndex: Int?
    /// The time played in the interstitial so far, all assets together.
    public var elapsed: MediaTime

    public init(event: InterstitialEvent, assets: [InterstitialAsset] = [], assetIndex: Int? = nil, elapsed: MediaTime = .zero) {
        self.event = event
        self.assets = assets
        self.assetIndex = assetIndex
        self.elapsed = elapsed
    }
}

/// The movement of an interstitial's playhead, carried by a progress report while the interstitial plays (the
/// primary's playhead does not move then).
public struct InterstitialProgress: Sendable, Hashable {
    public var event: InterstitialEvent
    /// The time played in the interstitial before and after the movement.
    public var from: MediaTime
    public var to: MediaTime

    public init(event: InterstitialEvent, from: MediaTime, to: MediaTime) {
        self.event = event
        self.from = from
        self.to = to
    }
}
