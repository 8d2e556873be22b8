/// One ad of an ad break.
public struct Ad: Sendable, Hashable, Identifiable {
    /// The ad's identifier, unique within its pod (a duplicate in the metadata gets a `#2`, `#3`… suffix).
    public var id: String
    /// The start, on the ad timeline.
    public var startTime: AdTime
    /// The duration.
    public var duration: AdTime
    public var trackingEvents: [TrackingEvent]
    /// The ad's title, when the metadata gives one (MediaTailor's `adTitle`).
    public var title: String?
    /// Where a click on the ad leads (opened by the app, never requested as a beacon).
    public var clickThrough: String?
    /// The start on the producer's wall clock, when the metadata gives it (Harmonic's `prftStartTime` on DASH).
    public var producerStartTime: AdTime?

    public init(id: String, startTime: AdTime, duration: AdTime, trackingEvents: [TrackingEvent] = [],
                title: String? = nil, clickThrough: String? = nil) {
        self.id = id
        self.startTime = startTime
        self.duration = duration
        self.trackingEvents = trackingEvents
        self.title = title
        self.clickThrough = clickThrough
    }

    /// The end, on the ad timeline.
    public var endTime: AdTime { startTime + duration }
}

/// An ad break (a pod): its ads and its own tracking events (breakStart, breakEnd).
public struct AdPod: Sendable, Hashable, Identifiable {
    /// The break's identifier (Harmonic's `id`, MediaTailor's `availId`; `@<start>` when the metadata has none).
    public var id: String
    /// The start, on the ad timeline.
    public var startTime: AdTime
    /// The duration.
    public var duration: AdTime
    public var ads: [Ad]
    /// Events of the break itself (MediaTailor's `adBreakTrackingEvents`).
    public var trackingEvents: [TrackingEvent]
    /// The start on the producer's wall clock, when the metadata gives it (Harmonic's `prftStartTime` on DASH).
    public var producerStartTime: AdTime?

    public init(id: String, startTime: AdTime, duration: AdTime, ads: [Ad] = [], trackingEvents: [TrackingEvent] = []) {
        self.id = id
        self.startTime = startTime
        self.duration = duration
        self.ads = ads
        self.trackingEvents = trackingEvents
    }

    /// The end, on the ad timeline.
    public var endTime: AdTime { startTime + duration }

    /// Every tracking event of the break and its ads.
    public var allTrackingEvents: [TrackingEvent] { trackingEvents + ads.flatMap(\.trackingEvents) }
}

/// The range of the timeline a metadata response covers (Harmonic's `dataRange`).
public struct DataRange: Sendable, Hashable {
    public var start: AdTime
    public var end: AdTime
    /// The same range on the producer's wall clock, when the metadata gives it (Harmonic's `prftStart`, `prftEnd`).
    public var producerStart: AdTime?
    public var producerEnd: AdTime?

    public init(start: AdTime, end: AdTime) {
        self.start = start
        self.end = end
    }
}

/// What the times of ad metadata count from.
public enum AdTimeline: String, Sendable, Hashable {
    /// Milliseconds since 1970: the stream's program-date-time (HLS live, and VOD streams that carry dates).
    case programDateTime
    /// Milliseconds from the start of the content (HLS VOD without dates) or of the session (MediaTailor).
    case mediaTime
}
