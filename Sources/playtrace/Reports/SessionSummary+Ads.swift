import PlaytraceAds

extension SessionSummary {
    /// The client-side ad tracking of the session: the ad session, every break with its ads and tracking events,
    /// every beacon fired with its delivery, and the counts the verdict is made of.
    struct Ads: Codable, Sendable {
        /// `harmonic`, `mediatailor`, `signaling` or `vast`.
        var format: String
        var session: AdSession?
        var metadataRequests: Int
        var metadataFailures: Int
        var latestError: String?
        var counts: AdCounts
        /// The breaks, in order. Times are on the item's media timeline (`startSeconds`), where the playback showed
        /// it; a program-date-time timeline's breaks carry their date too.
        var pods: [Pod]
        /// The beacons fired, in order, one entry per URL (at most ``beaconLimit``; `beaconsOmitted` counts the rest).
        var beacons: [Beacon]
        var beaconsOmitted: Int = 0
        /// The VAST responses resolved for interstitials (the latest of each break): absent when there were none.
        var vastChains: [VASTChain]?
        /// VAST resolutions past the session's limit, not listed.
        var vastChainsOmitted: Int?

        /// The most beacon URLs listed: a day-long live session fires tens of thousands.
        static let beaconLimit = 5_000
    }

    /// A VAST response an interstitial's asset list gave: the requests of its wrapper chain, the ads it resolved to,
    /// the errors reported to the chain.
    struct VASTChain: Codable, Sendable {
        struct Request: Codable, Sendable {
            var url: String
            /// How many wrappers deep: 0 for the asset list's own response.
            var depth: Int
            /// Why it gave no VAST document, when it did not.
            var failure: String?
        }

        struct ChainAd: Codable, Sendable {
            /// The ad's ID in the break (``Ad/id``).
            var id: String
            /// The documents its wrappers were in, outermost first; the last gave the inline ad.
            var chainURLs: [String]
            /// True for an ad left out of the interstitial (no HLS media file).
            var leftOut: Bool
        }

        struct Failure: Codable, Sendable {
            /// The VAST error code (100–102, 301–303, 403, 405…).
            var code: Int
            var message: String
            /// The `<Error>` URLs it went to.
            var urls: [String]
        }

        /// The break its ads are tracked under.
        var podID: String
        var interstitialID: String
        var requests: [Request]
        var ads: [ChainAd]
        var errors: [Failure]
    }

    /// The SSAI session's URLs (the seed's SessionView shows them).
    struct AdSession: Codable, Sendable {
        var id: String
        /// How it was obtained (`initialization request`, `redirect`, `playlist`…).
        var obtainedBy: String
        var mediaURL: String
        var manifestURL: String
        var metadataURL: String
    }

    /// The beacon figures the verdict is made of.
    struct AdCounts: Codable, Sendable {
        var expected: Int
        var fired: Int
        var playerInitiated: Int
        var delivered: Int
        var failed: Int
        var waiting: Int
        var late: Int
        var missed: Int
        var unexpected: Int
        var duplicated: Int
        var restored: Int
        var vastErrorReports: Int
        var refusedURLs: Int
        var urlsOverLimit: Int
        /// Absent when no beacon was sent.
        var worstDeliveryLatenessMilliseconds: Double?
        var worstFiringLatenessMilliseconds: Double?
    }

    /// A break.
    struct Pod: Codable, Sendable {
        var id: String
        /// Its start on the item's media timeline, when the playback placed it there.
        var startSeconds: Double?
        /// Its start as a stream date, on a program-date-time timeline.
        var startDate: String?
        var durationSeconds: Double
        /// Whether the playhead reached it: any of its events fired, or it has a fate (a break the playhead never
        /// reached has neither).
        var reached: Bool
        /// Why it did not play out, when it did not (skipped, no ad, could not play).
        var fate: Fate?
        var events: [TrackingEvent]
        var ads: [Ad]
    }

    /// Why a break or an ad did not play out (``AdFate``).
    struct Fate: Codable, Sendable {
        /// `skipped`, `noAd`, `failed` or `mediaFailed`.
        var kind: String
        /// The VAST error code of `noAd`.
        var code: Int?
        /// Why it failed, for `failed` and `mediaFailed`.
        var reason: String?
        /// In words, as every view says it.
        var text: String

        /// The fate it records; `nil` for a kind this version does not know.
        var adFate: AdFate? {
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
    struct Ad: Codable, Sendable {
        var id: String
        var title: String?
        var startSeconds: Double?
        var startDate: String?
        var durationSeconds: Double
        /// Why it did not play out, when it did not (skipped, its media failed).
        var fate: Fate?
        var events: [TrackingEvent]
    }

    /// A tracking event and its reporting state (Harmonic's `idle`, `connecting`, `done`, `failed`).
    struct TrackingEvent: Codable, Sendable {
        /// The event's identity (as in ``Beacon/key``: its beacons' entries carry the same).
        var key: String
        var type: String
        /// `automatic` (fired when the playhead crosses its time), `playerInitiated` (when the viewer acts) or
        /// `other`.
        var trigger: String
        var timeSeconds: Double?
        var date: String?
        var state: String
        var urls: [String]
    }

    /// One URL of a fired beacon and its delivery. `…Seconds` instants count from the session's start.
    struct Beacon: Codable, Sendable {
        var event: String
        /// The event's identity (break, ad, type and time) across runs.
        var key: String
        var url: String
        /// `crossed`, `entered`, `caughtUp`, `playerAction` or `error`.
        var cause: String
        /// The event's time on the item's media timeline, and its stream date on a program-date-time timeline.
        var eventTimeSeconds: Double?
        var eventDate: String?
        /// When the playhead crossed the event's time, when the beacon was handed to the outbox, and when its
        /// response arrived.
        var crossingSeconds: Double
        var sentSeconds: Double
        var deliveredSeconds: Double?
        /// In real time (the demo's clock may run faster): hand-over after the crossing, and the response's arrival
        /// after the crossing.
        var firingLatenessMilliseconds: Double
        var deliveryLatenessMilliseconds: Double?
        var attempts: Int
        /// `delivered`, `skipped`, `refused`, `failed` or `waiting`.
        var state: String
        var reason: String?
        var urlsOverLimit: Int?
        /// Whether its delivery came more than the lateness bound (1 s) after its crossing.
        var late: Bool
    }
}
