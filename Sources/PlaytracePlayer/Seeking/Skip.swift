/// A skip's direction (``Player/skip(_:completion:)``).
public enum Skip: String, Sendable, Hashable, CaseIterable {
    /// Back by the player's backward skip interval.
    case backward
    /// Forward by the player's forward skip interval.
    case forward
}
