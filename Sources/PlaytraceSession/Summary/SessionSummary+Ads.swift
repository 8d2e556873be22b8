public import PlaytraceAds

extension SessionSummary {
    /// The client-side ad tracking of the session: the ad session, every break with its ads and tracking events,
    /// every beacon fired with its delivery, and the counts the verdict is made of.
    public struct Ads: Codable, Sendable {
        /// `harmonic`, `mediatailor`, `signaling` or `vast`.
        public var format: String
        public var session: AdSession?
        public var metadataRequests: Int
        public var metadataFailures: Int
        public var latestError: String?
        public var counts: AdCounts
        /// The breaks, in order. Times are on the item's media timeline (`startSeconds`), where the playback showed
        /// it; a program-date-time timeline's breaks carry their date too.
        public var pods: [Pod]
        /// The beacons fired, in order, one entry per URL (at most ``beaconLimit``; `beaconsOmitted` counts the rest).
        public var beacons: [Beacon]
        public var beaconsOmitted: Int = 0
        /// Breaks the live window left behind that were folded into the counts and not listed (a probe's viewers),
        /// and the beacon URLs they fired, not listed either; absent when none.
        public var podsRetired: Int?
        public var beaconsRetired: Int?
        /// The VAST responses resolved for interstitials (the latest of each break): absent when there were none.
        public var vastChains: [VASTChain]?
        /// VAST resolutions past the session's limit, not listed.
        public var vastChainsOmitted: Int?

        /// The most beacon URLs listed: a day-long live session fires tens of thousands.
        public static let beaconLimit = 5_000
    }

    /// A VAST response an interstitial's asset list gave: the requests of its wrapper chain, the ads it resolved to,
    /// the errors reported to the chain.
    public struct VASTChain: Codable, Sendable {
        public struct Request: Codable, Sendable {
            public var url: String
            /// How many wrappers deep: 0 for the asset list's own response.
            public var depth: Int
            /// Why it gave no VAST document, when it did not.
            public var failure: String?
        }

        public struct ChainAd: Codable, Sendable {
            /// The ad's ID in the break (``Ad/id``).
            public var id: String
            /// The documents its wrappers were in, outermost first; the last gave the inline ad.
            public var chainURLs: [String]
            /// True for an ad left out of the interstitial (no HLS media file).
            public var leftOut: Bool
        }

        public struct Failure: Codable, Sendable {
            /// The VAST error code (100–102, 301–303, 403, 405…).
            public var code: Int
            public var message: String
            /// The `<Error>` URLs it went to.
            public var urls: [String]
        }

        /// The break its ads are tracked under.
        public var podID: String
        public var interstitialID: String
        public var requests: [Request]
        public var ads: [ChainAd]
        public var errors: [Failure]
    }

    /// The SSAI session's URLs (the seed's SessionView shows them).
    public struct AdSession: Codable, Sendable {
        public var id: String
        /// How it was obtained (`initialization request`, `redirect`, `playlist`…).
        public var obtainedBy: String
        public var mediaURL: String
        public var manifestURL: String
        public var metadataURL: String
    }

    /// The beacon figures the verdict is made of.
    public struct AdCounts: Codable, Sendable {
        public var expected: Int
        public var fired: Int
        public var playerInitiated: Int
        public var delivered: Int
        public var failed: Int
        public var waiting: Int
        public var late: Int
        public var missed: Int
        public var unexpected: Int
        public var duplicated: Int
        public var restored: Int
        public var vastErrorReports: Int
        public var refusedURLs: Int
        public var urlsOverLimit: Int
        /// Absent when no beacon was sent.
        public var worstDeliveryLatenessMilliseconds: Double?
        public var worstFiringLatenessMilliseconds: Double?
    }

    /// A break.
    public struct Pod: Codable, Sendable {
        public var id: String
        /// Its start on the item's media timeline, when the playback placed it there.
        public var startSeconds: Double?
        /// Its start as a stream date, on a program-date-time timeline.
        public var startDate: String?
        public var durationSeconds: Double
        /// Whether the playhead reached it: any of its events fired, or it has a fate (a break the playhead never
        /// reached has neither).
        public var reached: Bool
        /// Why it did not play out, when it did not (skipped, no ad, could not play).
        public var fate: Fate?
        public var events: [TrackingEvent]
        public var ads: [Ad]
    }

    /// Why a break or an ad did not play out (`AdFate`).
    public struct Fate: Codable, Sendable {
        /// `skipped`, `noAd`, `failed` or `mediaFailed`.
        public var kind: String
        /// The VAST error code of `noAd`.
        public var code: Int?
        /// Why it failed, for `failed` and `mediaFailed`.
        public var reason: String?
        /// In words, as every view says it.
        public var text: String

        /// The fate it records; `nil` for a kind this version does not know.
        public var adFate: AdFate? {
            switch kind {
            case "skipped": .skipped
            case "noAd": code.map { .noAd(code: $0) }
            case "failed": .failed(reason ?? "")
            case "mediaFailed": .mediaFailed(reason ?? "")
            default: nil
            }
        }
    }

    /// An ad of a break.
    public struct Ad: Codable, Sendable {
        public var id: String
        public var title: String?
        public var startSeconds: Double?
        public var startDate: String?
        public var durationSeconds: Double
        /// Why it did not play out, when it did not (skipped, its media failed).
        public var fate: Fate?
        public var events: [TrackingEvent]
    }

    /// A tracking event and its reporting state (Harmonic's `idle`, `connecting`, `done`, `failed`).
    public struct TrackingEvent: Codable, Sendable {
        /// The event's identity (as in ``Beacon/key``: its beacons' entries carry the same).
        public var key: String
        public var type: String
        /// `automatic` (fired when the playhead crosses its time), `playerInitiated` (when the viewer acts) or
        /// `other`.
        public var trigger: String
        public var timeSeconds: Double?
        public var date: String?
        public var state: String
        public var urls: [String]
    }

    /// One URL of a fired beacon and its delivery. `…Seconds` instants count from the session's start.
    public struct Beacon: Codable, Sendable {
        public var event: String
        /// The event's identity (break, ad, type and time) across runs.
        public var key: String
        public var url: String
        /// `crossed`, `entered`, `caughtUp`, `playerAction` or `error`.
        public var cause: String
        /// The event's time on the item's media timeline, and its stream date on a program-date-time timeline.
        public var eventTimeSeconds: Double?
        public var eventDate: String?
        /// When the playhead crossed the event's time, when the beacon was handed to the outbox, and when its
        /// response arrived.
        public var crossingSeconds: Double
        public var sentSeconds: Double
        public var deliveredSeconds: Double?
        /// In real time (the demo's clock may run faster): hand-over after the crossing, and the response's arrival
        /// after the crossing.
        public var firingLatenessMilliseconds: Double
        public var deliveryLatenessMilliseconds: Double?
        public var attempts: Int
        /// `delivered`, `skipped`, `refused`, `failed` or `waiting`.
        public var state: String
        public var reason: String?
        public var urlsOverLimit: Int?
        /// Whether its delivery came more than the lateness bound (1 s) after its crossing.
        public var late: Bool
    }
}
