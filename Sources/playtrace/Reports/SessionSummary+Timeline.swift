extension SessionSummary {
    /// The session over time: the player sampled at a fixed interval, what happened between samples, and the ad
    /// breaks and interstitials the stream signalled. `atSeconds` counts from the session's start.
    ///
    /// Bounded whatever the session's length: past ``sampleLimit`` samples every other one is dropped and the
    /// interval doubles (a day-long session keeps its whole span at a coarser step); past ``eventLimit`` events
    /// the later ones are counted in `eventsOmitted`, failures and warnings excepted up to as many again.
    struct Timeline: Codable, Sendable {
        var sampleIntervalSeconds: Double = 0.25
        var samples: [Sample] = []
        var events: [PlaybackEvent] = []
        var eventsOmitted = 0
        var breaks: [Break] = []

        static let sampleLimit = 2_000
        static let eventLimit = 1_000
        static let breakLimit = 500
    }

    /// The player at one moment.
    struct Sample: Codable, Sendable {
        var atSeconds: Double
        /// The item's index in ``SessionSummary/items`` order of play (0 for the first).
        var item: Int
        /// `idle`, `playing`, `paused`, `ended` or `failed`.
        var state: String
        var buffering: Bool
        var rate: Double
        var playheadSeconds: Double
        var bufferAheadSeconds: Double
        /// The item's duration (on demand), and the end of what can be played (live and DVR: the live edge).
        var durationSeconds: Double?
        var seekableEndSeconds: Double?
        var variant: Int?
        var bitrateBitsPerSecond: Int?
        /// The interstitial playing, if any.
        var interstitial: String?
    }

    /// Something that happened to the playback: `firstFrame`, `stall`, `stallEnded`, `seek`, `seekEnded`, `pause`,
    /// `play`, `rate`, `variantSwitch`, `interstitialBegan`, `interstitialEnded`, `interstitialAssetFailed`,
    /// `failure`, `warning`, `itemStarted`.
    struct PlaybackEvent: Codable, Sendable {
        var atSeconds: Double
        var item: Int
        var kind: String
        var playheadSeconds: Double
        /// The event in words, as the console said it.
        var text: String
        /// A stall's or startup's length, a seek's target, a rate, a variant's bit rate: set for the kinds they
        /// belong to.
        var durationSeconds: Double?
        var targetSeconds: Double?
        var rate: Double?
        var bitrateBitsPerSecond: Int?
    }

    /// An ad break or interstitial the stream signalled, on its item's media timeline.
    struct Break: Codable, Sendable {
        var item: Int
        var id: String
        /// How it was signalled (`daterange-scte35`, `cue-out/cue-in`, `interstitial`…): a break signalled twice has
        /// both.
        var sources: [String]
        var startSeconds: Double?
        var durationSeconds: Double?
        var interstitial: Bool
    }

    /// The HTTP requests the session made through its transport (playlists, segments and keys on the headless
    /// engine; ad metadata, VAST, beacons and telemetry on every engine: libmpv fetches its media itself).
    ///
    /// The counts cover every request; the list keeps every failure up to ``failureLimit`` and the first
    /// ``successLimit`` successes, and `omitted` counts the rest.
    struct Requests: Codable, Sendable {
        var total = 0
        var failed = 0
        var bytesReceived = 0
        var listed: [Request] = []
        var omitted = 0

        static let failureLimit = 250
        static let successLimit = 250
    }

    /// One request: a status when a response came (a 4xx or 5xx is a failure), an error when none did.
    struct Request: Codable, Sendable {
        var atSeconds: Double
        var method: String
        var url: String
        var status: Int?
        var error: String?
        var timeToFirstByteMilliseconds: Double?
        var durationMilliseconds: Double
        var bytes: Int

        var isFailure: Bool { error != nil || (status ?? 0) >= 400 }
    }
}
