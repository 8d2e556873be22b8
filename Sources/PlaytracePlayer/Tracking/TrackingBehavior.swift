/// Whether a tracker obeys ``Player/isTrackingEnabled``.
public enum TrackingBehavior: String, Sendable, Hashable {
    /// Off while tracking is disabled (analytics the user may opt out of).
    case optional
    /// Always on (QoS monitoring that must run).
    case mandatory
}
