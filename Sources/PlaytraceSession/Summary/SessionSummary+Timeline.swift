extension SessionSummary {
    /// The session over time: the player sampled at a fixed interval, what happened between samples, and the ad
    /// breaks and interstitials the stream signalled. `atSeconds` counts from the session's start.
    ///
    /// Bounded whatever the session's length: past ``sampleLimit`` samples every other one is dropped and the
    /// interval doubles (a day-long session keeps its whole span at a coarser step); past ``eventLimit`` events
    /// the later ones are counted in `eventsOmitted`, failures and warnings excepted up to as many again.
    public struct Timeline: Codable, Sendable {
        public var sampleIntervalSeconds: Double = 0.25
        public var samples: [Sample] = []
        public var events: [PlaybackEvent] = []
        public var eventsOmitted = 0
        public var breaks: [Break] = []

        public static let sampleLimit = 2_000
        public static let eventLimit = 1_000
        public static let breakLimit = 500
    }

    /// The player at one moment.
    public struct Sample: Codable, Sendable {
        public var atSeconds: Double
        /// The item's index in ``SessionSummary/items`` order of play (0 for the first).
        public var item: Int
        /// `idle`, `playing`, `paused`, `ended` or `failed`.
        public var state: String
        public var buffering: Bool
        public var rate: Double
        public var playheadSeconds: Double
        public var bufferAheadSeconds: Double
        /// The item's duration (on demand), and the end of what can be played (live and DVR: the live edge).
        public var durationSeconds: Double?
        public var seekableEndSeconds: Double?
        public var variant: Int?
        public var bitrateBitsPerSecond: Int?
        /// The interstitial playing, if any.
        public var interstitial: String?
    }

    /// Something that happened to the playback: `firstFrame`, `stall`, `stallEnded`, `seek`, `seekEnded`, `pause`,
    /// `play`, `rate`, `variantSwitch`, `interstitialBegan`, `interstitialEnded`, `interstitialAssetFailed`,
    /// `failure`, `warning`, `itemStarted`.
    public struct PlaybackEvent: Codable, Sendable {
        public var atSeconds: Double
        public var item: Int
        public var kind: String
        public var playheadSeconds: Double
        /// The event in words, as the console said it.
        public var text: String
        /// A stall's or startup's length, a seek's target, a rate, a variant's bit rate: set for the kinds they
        /// belong to.
        public var durationSeconds: Double?
        public var targetSeconds: Double?
        public var rate: Double?
        public var bitrateBitsPerSecond: Int?
    }

    /// An ad break or interstitial the stream signalled, on its item's media timeline.
    public struct Break: Codable, Sendable {
        public var item: Int
        public var id: String
        /// How it was signalled (`daterange-scte35`, `cue-out/cue-in`, `interstitial`…): a break signalled twice has
        /// both.
        public var sources: [String]
        public var startSeconds: Double?
        public var durationSeconds: Double?
        public var interstitial: Bool
    }

    /// The HTTP requests the session made through its transport (playlists, segments and keys on the headless
    /// engine; ad metadata, VAST, beacons and telemetry on every engine: libmpv fetches its media itself).
    ///
    /// The counts cover every request; the list keeps every failure up to ``failureLimit`` and the first
    /// ``successLimit`` successes, and `omitted` counts the rest.
    public struct Requests: Codable, Sendable {
        public var total = 0
        public var failed = 0
        public var bytesReceived = 0
        public var listed: [Request] = []
        public var omitted = 0

        public static let failureLimit = 250
        public static let successLimit = 250
    }

    /// One request: a status when a response came (a 4xx or 5xx is a failure), an error when none did.
    public struct Request: Codable, Sendable {
        public var atSeconds: Double
        public var method: String
        public var url: String
        public var status: Int?
        public var error: String?
        public var timeToFirstByteMilliseconds: Double?
        public var durationMilliseconds: Double
        public var bytes: Int

        public var isFailure: Bool { error != nil || (status ?? 0) >= 400 }
    }
}
