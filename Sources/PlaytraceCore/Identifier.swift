import Foundation

/// A typed identifier: a string tagged with the kind of thing it names, so that a session id cannot be passed
/// where a stream id is expected.
///
/// ```swift
/// enum Viewer {}
/// let id = Identifier<Viewer>()          // a random UUID
/// let known = Identifier<Viewer>("v-42")
/// ```
public struct Identifier<Kind>: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The identifier's text.
    public let rawValue: String

    /// Wraps an existing identifier.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Creates a new random identifier (a lower-case UUID).
    public init() { self.rawValue = UUID().uuidString.lowercased() }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// Tags for the identifiers Playtrace hands out.
public enum IdentifierKind {
    /// One viewing session of one item: from the play request to the end, failure or abandon.
    public enum PlaybackSession {}
    /// One HTTP request made by an engine.
    public enum Request {}
}

/// Identifies one viewing session of one item.
public typealias PlaybackSessionID = Identifier<IdentifierKind.PlaybackSession>
/// Identifies one HTTP request made by an engine.
public typealias RequestID = Identifier<IdentifierKind.Request>
