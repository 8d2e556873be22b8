/// What a probe's viewer asked of the network (``ProbeRequestCounter`` counts requests by it; a probe summary carries
/// the counts).
public enum ProbeRequestKind: String, Sendable, CaseIterable, Codable {
    /// Multivariant and media playlists (and DASH manifests).
    case playlist
    /// Media segments, initialization sections and keys.
    case segment
    /// The ad session's set-up, metadata polls and VAST.
    case metadata
    /// Ad beacons.
    case beacon
    /// Telemetry batches.
    case telemetry
}

/// The requests of one kind a probe's viewers made: how many, their bytes, their outcomes.
public struct ProbeRequestCounts: Sendable, Codable, Equatable {
    public var requests = 0
    public var bytes = 0
    /// By outcome: `2xx`, `3xx`, an HTTP status of 400 and above (`404`), or the transport's failure
    /// (`timeout`, `connect`, `connectionClosed`…).
    public var outcomes: [String: Int] = [:]

    /// Requests with an HTTP error status or no response. A request its viewer gave up (`cancelled`: the viewer
    /// left, seeked or switched) is not the origin's failure and is not counted.
    public var failed: Int { outcomes.filter { Self.isFailure($0.key) }.values.reduce(0, +) }

    /// Whether an outcome is a failure: an HTTP error status or a transport failure, not a cancellation.
    public static func isFailure(_ outcome: String) -> Bool {
        outcome != "2xx" && outcome != "3xx" && outcome != "cancelled"
    }
}
