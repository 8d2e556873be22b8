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
    public init() { self.rawValue = RandomUUID.lowercasedString() }

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

/// Random (version 4) UUIDs as lower-case strings, made from the system's random generator in one step.
///
/// Foundation's `UUID().uuidString.lowercased()` makes three strings and, on Linux, reads the random device anew
/// for each; telemetry makes one per playback, so this is the cheap way to the same text.
public enum RandomUUID {
    /// A new random UUID, `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx` in lower-case hexadecimal (RFC 9562, version 4).
    public static func lowercasedString() -> String {
        var generator = SystemRandomNumberGenerator()
        var high = generator.next()
        var low = generator.next()
        high = (high & ~0xF000) | 0x4000                          // version 4
        low = (low & ~(0xC000 << 48)) | (0x8000 << 48)            // variant 10
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 36) { buffer in
            var position = 0
            for index in 0..<32 {
                if index == 8 || index == 12 || index == 16 || index == 20 {
                    buffer[position] = UInt8(ascii: "-")
                    position += 1
                }
                let word = index < 16 ? high : low
                buffer[position] = digits.utf8Start[Int((word >> UInt64(60 - 4 * (index % 16))) & 0xF)]
                position += 1
            }
            return position
        }
    }
}
