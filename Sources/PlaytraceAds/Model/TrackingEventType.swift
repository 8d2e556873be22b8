/// The type of an ad tracking event: what a beacon reports (`impression`, `firstQuartile`, `pause`…).
///
/// Types are open: metadata can name any event, and an unknown name is kept (listed by `inspect`) but never sent
/// automatically. ``kind`` says how an event of the type is triggered.
///
/// ```swift
/// TrackingEventType(rawValue: "firstQuartile").kind   // .automatic: fired when the playhead crosses its time
/// TrackingEventType.pause.kind                        // .playerInitiated: fired when the viewer pauses in the ad
/// ```
public struct TrackingEventType: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// How events of a type are triggered.
    public enum Kind: String, Sendable, Hashable {
        /// Fired once when the playhead crosses the event's time at normal speed (impression, start, quartiles,
        /// complete, progress, loaded, breakStart, breakEnd).
        case automatic
        /// Fired each time the viewer does what it names while the ad plays (mute, pause, rewind, skip…).
        case playerInitiated
        /// Listed but never fired by the scheduler: clicks (a click-through URL is opened, not requested),
        /// errors (sent when an error happens), and types this library does not know.
        case other
    }

    public static let impression = Self(rawValue: "impression")
    public static let loaded = Self(rawValue: "loaded")
    public static let start = Self(rawValue: "start")
    public static let firstQuartile = Self(rawValue: "firstQuartile")
    public static let midpoint = Self(rawValue: "midpoint")
    public static let thirdQuartile = Self(rawValue: "thirdQuartile")
    public static let complete = Self(rawValue: "complete")
    public static let progress = Self(rawValue: "progress")
    /// VAST: the creative began to show (fired with the impression).
    public static let creativeView = Self(rawValue: "creativeView")
    /// VAST: a verification script was not run (fired at the ad's start, with `[REASON]`).
    public static let verificationNotExecuted = Self(rawValue: "verificationNotExecuted")
    /// The start of an ad break (MediaTailor's avail-level event, fired at the avail's start).
    public static let breakStart = Self(rawValue: "breakStart")
    /// The end of an ad break (fired at the avail's end).
    public static let breakEnd = Self(rawValue: "breakEnd")

    public static let mute = Self(rawValue: "mute")
    public static let unmute = Self(rawValue: "unmute")
    public static let pause = Self(rawValue: "pause")
    public static let resume = Self(rawValue: "resume")
    public static let rewind = Self(rawValue: "rewind")
    public static let skip = Self(rawValue: "skip")
    public static let playerExpand = Self(rawValue: "playerExpand")
    public static let playerCollapse = Self(rawValue: "playerCollapse")

    public static let clickThrough = Self(rawValue: "clickThrough")
    public static let clickTracking = Self(rawValue: "clickTracking")
    public static let error = Self(rawValue: "error")

    private static let automaticTypes: Set<String> = [
        "impression", "loaded", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete", "progress",
        "breakStart", "breakEnd", "creativeView", "verificationNotExecuted",
    ]
    private static let playerInitiatedTypes: Set<String> = [
        "mute", "unmute", "pause", "resume", "rewind", "skip", "playerExpand", "playerCollapse",
    ]

    /// How events of this type are triggered.
    public var kind: Kind {
        if Self.automaticTypes.contains(rawValue) { return .automatic }
        if Self.playerInitiatedTypes.contains(rawValue) { return .playerInitiated }
        return .other
    }

    /// Whether an ad entered anywhere but at its start still reports this event (its impression and start: the
    /// viewer saw the ad begin to render).
    public var firesOnEntry: Bool {
        self == .impression || self == .start || self == .loaded || self == .breakStart || self == .creativeView
            || self == .verificationNotExecuted
    }
}
