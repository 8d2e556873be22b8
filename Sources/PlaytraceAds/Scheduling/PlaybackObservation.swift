public import PlaytraceCore

/// What the beacon scheduler learns about playback, on the ad timeline (as the metadata counts it).
///
/// Observations come from the engine through the Player, one per movement of the playhead: never sampled on a
/// timer, so that nothing between two of them is unseen.
public enum PlaybackObservation: Sendable, Hashable {
    /// The playhead moved continuously from `from` to `to` at `rate`, arriving at `to` at `instant` (on the
    /// session's stopwatch). A stall is the absence of this between two observations; it hides nothing.
    case played(from: AdTime, to: AdTime, rate: Double, at: Duration)
    /// The playhead jumped from `from` (`nil` when playback had no position yet: a join) to `to` without playing
    /// what lies between: a seek, a skipped range, a discontinuity.
    case jumped(from: AdTime?, to: AdTime, at: Duration)
}

/// One beacon to send: an event whose moment came, with what the macros and the report need.
public struct BeaconFiring: Sendable, Hashable {
    /// Why the event fired.
    public enum Cause: String, Sendable, Hashable, Codable {
        /// The playhead crossed the event's time while playing at normal speed.
        case crossed
        /// Playback entered the ad (or break) past its start: its impression and start still count.
        case entered
        /// The metadata arrived after the playhead had played past the event: caught up once.
        case caughtUp
        /// The viewer did what the event names (pause, mute…) while the ad played.
        case playerAction
        /// An error to report (VAST `<Error>` URLs, with `[ERRORCODE]`).
        case error
    }

    public var key: TrackingEventKey
    /// 0 for an automatic event (it fires once); 1, 2… for each report of a player-initiated one.
    public var occurrence: Int
    public var event: TrackingEventType
    /// The event's time on the ad timeline.
    public var mediaTime: AdTime
    /// When the playhead was at the event's time (or entered the ad), on the session's stopwatch.
    public var crossing: Duration
    public var cause: Cause
    /// The beacon URLs (macros not yet filled).
    public var urls: [String]
    /// Where in its ad the playhead was, for `[ADPLAYHEAD]`; `nil` for a break-level event.
    public var adPlayhead: AdTime?
    /// The ad's start and the break's start, on the ad timeline.
    public var adStart: AdTime?
    public var podStart: AdTime
    /// `[ERRORCODE]`, for an error beacon.
    public var errorCode: Int?
    /// The event's URLs past the limit per event, dropped when the metadata was read (``TrackingEvent/urlsOverLimit``).
    public var urlsOverLimit = 0

    /// The idempotency key of this occurrence in an ad session (``SessionInfo/id``): the same in every run of the
    /// session for an automatic event (it fires once, even after a restart), and distinct for each report of a
    /// player-initiated one (the report's date in milliseconds makes it so across restarts).
    public func deliveryKey(session: String, reportedAt date: StreamDate) -> String {
        let prefix = Self.keyPrefix(session: session)
        guard occurrence > 0 else { return "\(prefix)\(key)" }
        return "\(prefix)\(key)#\(occurrence)@\(Int64(saturating: date.millisecondsSince1970))"
    }

    /// What every delivery key of an ad session starts with.
    public static func keyPrefix(session: String) -> String { "beacon:\(session):" }
}
