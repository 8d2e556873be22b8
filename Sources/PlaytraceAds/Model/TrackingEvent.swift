/// What identifies a tracking event across metadata responses and process restarts: its pod, its ad (none for a
/// break-level event), its type and its time when first seen. Never its URLs, which servers change (cache
/// busters) without the event being another one.
///
/// The key is also the stem of the beacon's idempotency key in the Outbox-backed delivery.
public struct TrackingEventKey: Hashable, Sendable, Codable, CustomStringConvertible, Comparable {
    public var podID: String
    /// The ad's identifier; `nil` for an event of the break itself (breakStart, breakEnd).
    public var adID: String?
    public var event: TrackingEventType
    /// The event's time when it was first seen, in whole milliseconds on the ad timeline (a VAST error report's: a
    /// digest of its code and URLs). Part of the identity, written into delivery keys, never computed with: the
    /// event's time is ``TrackingEvent/startTime``.
    public var time: Int64

    public init(podID: String, adID: String?, event: TrackingEventType, time: Int64) {
        self.podID = podID
        self.adID = adID
        self.event = event
        self.time = time
    }

    /// `pod/ad/event@time`, with `-` for a break-level event's ad.
    public var description: String { "\(podID)/\(adID ?? "-")/\(event.rawValue)@\(time)" }
    /// The event as a reader names it, `break-1/ad-1/midpoint`: its break, ad and type, without its time.
    public var name: String { "\(podID)/\(adID ?? "-")/\(event.rawValue)" }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.time, lhs.podID, lhs.adID ?? "", lhs.event.rawValue) < (rhs.time, rhs.podID, rhs.adID ?? "", rhs.event.rawValue)
    }
}

/// One tracking event of an ad (or of an ad break): when it happens on the ad timeline, and the URLs to request
/// when it does.
///
/// Times are milliseconds on the metadata's ``AdTimeline``: since 1970 for program-date-time timelines, from the
/// start of the content (or session) otherwise.
public struct TrackingEvent: Sendable, Hashable, Identifiable {
    /// The identity kept across merges and restarts.
    public var id: TrackingEventKey
    public var event: TrackingEventType
    /// When the event happens, on the ad timeline.
    public var startTime: AdTime
    /// How long it spans (the ad's duration for an impression; 0 for start, quartiles, complete).
    public var duration: AdTime
    /// The beacon URLs, each requested when the event fires (macros filled).
    public var signalingUrls: [String]
    public var reportingState: ReportingState
    /// URLs the metadata listed for the event past ``AdMetadataLimits/maximumURLsPerEvent``: not kept, not
    /// requested, counted so that a summary can say so.
    public var urlsOverLimit: Int
    /// The time on the producer's wall clock, when the metadata gives it (Harmonic's `prftStartTime` on DASH).
    public var producerStartTime: AdTime?

    public init(id: TrackingEventKey, event: TrackingEventType, startTime: AdTime, duration: AdTime = .zero,
                signalingUrls: [String], reportingState: ReportingState = .idle, urlsOverLimit: Int = 0) {
        self.id = id
        self.event = event
        self.startTime = startTime
        self.duration = duration
        self.signalingUrls = signalingUrls
        self.reportingState = reportingState
        self.urlsOverLimit = urlsOverLimit
    }
}
