/// One fired beacon occurrence and what became of each of its URLs.
public struct BeaconRecord: Sendable, Hashable {
    public struct URLState: Sendable, Hashable {
        public enum Outcome: Sendable, Hashable {
            /// Delivered: the response arrived at this instant of the session's stopwatch.
            case delivered(Duration)
            /// Nothing to request (`about:blank`).
            case skipped
            /// Not requested: the URL is not one Playtrace requests (a scheme other than http and https), for this
            /// reason. Said, and not a failure of the event.
            case refused(String)
            /// Requested, and failed for good (refused by the server, or out of attempts).
            case failed(String)

            /// Whether the URL failed for good.
            public var isFailure: Bool { if case .failed = self { true } else { false } }
        }
        /// The URL requested, macros filled.
        public var url: String
        public var attempts = 0
        /// `nil` while it waits.
        public var outcome: Outcome?
    }

    public var firing: BeaconFiring
    /// When it was handed to the Outbox, on the session's stopwatch.
    public var sentAt: Duration
    public var urls: [URLState]
    /// The event's URLs past the limit per event (``AdMetadataLimits/maximumURLsPerEvent``), not requested.
    public var urlsOverLimit = 0

    /// How long after the crossing it was handed over (the firing's lateness).
    public var lateness: Duration { sentAt - firing.crossing }

    /// How long after the crossing its last URL was delivered (the response's arrival): the lateness that a vendor
    /// sees. `nil` while a URL waits, or when none was delivered.
    public var deliveryLateness: Duration? {
        var latest: Duration?
        for url in urls {
            switch url.outcome {
            case .delivered(let instant): latest = max(latest ?? instant, instant)
            case nil: return nil
            default: break
            }
        }
        return latest.map { $0 - firing.crossing }
    }

    /// The event's reporting state from its URLs' states: `nil` while one waits; ``ReportingState/failed`` when
    /// one failed for good; ``ReportingState/done`` otherwise.
    public var state: ReportingState? {
        guard urls.allSatisfy({ $0.outcome != nil }) else { return nil }
        return urls.contains { $0.outcome?.isFailure == true } ? .failed : .done
    }
}
