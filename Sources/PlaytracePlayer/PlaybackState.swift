/// What the player is doing, as a user interface shows it. Buffering and seeking are reported separately.
public enum PlaybackState: String, Sendable, Hashable, CaseIterable {
    /// Nothing to play.
    case idle
    /// Playing (or trying to: buffering is not a state of its own).
    case playing
    /// Paused.
    case paused
    /// The item played to its end.
    case ended
}
