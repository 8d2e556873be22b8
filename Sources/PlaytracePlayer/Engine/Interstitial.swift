public import PlaytraceCore

/// An HLS interstitial as an engine plays it (rfc8216bis appendix D): ads, or any content, that live outside the
/// primary stream and play at a point of it while the primary waits.
public struct InterstitialEvent: Sendable, Hashable {
    /// When it plays relative to the primary content (`CUE`).
    public enum Placement: String, Sendable, Hashable, Codable {
        /// `CUE=PRE`: before the primary content starts, wherever playback starts.
        case preRoll
        /// At its date (no `PRE` or `POST` cue).
        case midRoll
        /// `CUE=POST`: after the primary content ends.
        case postRoll
    }

    /// When the viewer may skip it (`X-SKIP-CONTROL-OFFSET`, `-DURATION`, `-LABEL-ID`, or the asset list's
    /// `SKIP-CONTROL`), in interstitial time.
    public struct SkipControl: Sendable, Hashable {
        /// When the skip control appears, from the interstitial's beginning.
        public var offset: MediaTime
        /// How long it stays; `nil`: to the end.
        public var duration: MediaTime?
        /// The label to show on it (`LABEL-ID`).
        public var labelID: String?

        public init(offset: MediaTime, duration: MediaTime? = nil, labelID: String? = nil) {
            self.offset = offset
            self.duration = duration
            self.labelID = labelID
        }

        /// Whether the control is shown after `elapsed` of the interstitial.
        public func isShown(after elapsed: MediaTime) -> Bool {
            elapsed >= offset && duration.map { elapsed < offset + $0 } ?? true
        }
    }

    /// The `EXT-X-DATERANGE` ID.
    public var id: String
    /// Where in the primary it plays (for a pre-roll, where playback starts; for a post-roll, the primary's end).
    public var start: MediaTime
    /// Where its `START-DATE` falls in the primary, before `X-SNAP` moved it to a segment boundary: its place on a
    /// media-time ad timeline.
    public var datePosition: MediaTime
    /// Its `START-DATE`.
    public var startDate: StreamDate?
    /// Where the primary resumes, from `start` (`X-RESUME-OFFSET`); `nil`: after as much as the interstitial played
    /// (for a pre-roll: where the primary starts).
    public var resumeOffset: MediaTime?
    /// The longest it may play (`X-PLAYOUT-LIMIT`).
    public var playoutLimit: MediaTime?
    /// The date range's `DURATION` (or `PLANNED-DURATION`): how much of the primary's timeline it stands for.
    public var duration: MediaTime?
    /// `X-RESTRICT=SKIP`: the viewer may not skip it.
    public var isSkipRestricted: Bool
    /// `X-RESTRICT=JUMP`: a seek past it plays it first.
    public var isJumpRestricted: Bool
    /// `CUE`: before, at its date in, or after the primary content.
    public var placement: Placement
    /// `CUE=ONCE`: played only the first time it is reached (otherwise a seek back before it plays it again).
    public var playsOnce: Bool
    /// When the viewer may skip it; `nil`: any time (unless ``isSkipRestricted``).
    public var skipControl: SkipControl?

    public init(id: String, start: MediaTime, startDate: StreamDate? = nil, resumeOffset: MediaTime? = nil,
                playoutLimit: MediaTime? = nil, isSkipRestricted: Bool = false, isJumpRestricted: Bool = false,
                placement: Placement = .midRoll, playsOnce: Bool = false, skipControl: SkipControl? = nil,
                datePosition: MediaTime? = nil, duration: MediaTime? = nil) {
        self.id = id
        self.duration = duration
        self.datePosition = datePosition ?? start
        self.placement = placement
        self.playsOnce = playsOnce
        self.skipControl = skipControl
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
    /// The position on the interstitial's timeline: the durations of the assets before the current one (played,
    /// failed or not) plus the time into it. An ad timeline's playhead during the interstitial is its date plus this.
    public var time: MediaTime

    public init(event: InterstitialEvent, assets: [InterstitialAsset] = [], assetIndex: Int? = nil, elapsed: MediaTime = .zero,
                time: MediaTime? = nil) {
        self.event = event
        self.assets = assets
        self.assetIndex = assetIndex
        self.elapsed = elapsed
        self.time = time ?? elapsed
    }

    /// Whether the viewer may skip it now: it is not `X-RESTRICT=SKIP`, and its skip control, if it has one, is
    /// shown.
    public var canSkip: Bool {
        !event.isSkipRestricted && (event.skipControl?.isShown(after: elapsed) ?? true)
    }
}

/// The movement of an interstitial's playhead, carried by a progress report while the interstitial plays (the
/// primary's playhead does not move then).
public struct InterstitialProgress: Sendable, Hashable {
    public var event: InterstitialEvent
    /// The positions on the interstitial's timeline before and after the movement (``InterstitialStatus/time``).
    public var from: MediaTime
    public var to: MediaTime

    public init(event: InterstitialEvent, from: MediaTime, to: MediaTime) {
        self.event = event
        self.from = from
        self.to = to
    }
}
