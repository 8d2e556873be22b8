public import PlaytraceCore

/// A remarkable range of an item's timeline: credits, a blocked range (never played), or a custom kind.
public struct TimeRange: Sendable, Hashable {
    /// Which credits.
    public enum Credits: String, Sendable, Hashable {
        case opening
        case closing
    }

    /// What the range is.
    public enum Kind: Sendable, Hashable {
        /// Opening or closing credits: a user interface may offer to skip them.
        case credits(Credits)
        /// Content that must never play: the player skips it and refuses to seek into it.
        case blocked
        /// Anything else, named by the app.
        case custom(String)
    }

    public var kind: Kind
    /// Where the range lies.
    public var range: MediaTimeRange

    public init(kind: Kind, range: MediaTimeRange) {
        self.kind = kind
        self.range = range
    }

    /// Whether the range is blocked.
    public var isBlocked: Bool { kind == .blocked }
}
