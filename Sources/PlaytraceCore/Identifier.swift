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
        return lowercasedString(using: &generator)
    }

    /// A new random UUID drawn from `generator` (a ``FastRandom`` seeded from the system for ids made often).
    public static func lowercasedString(using generator: inout some RandomNumberGenerator) -> String {
        CompactUUID.random(using: &generator).description
    }
}

/// A UUID as its 128 bits: a plain value (copying one counts no reference), written as lower-case text when asked.
///
/// ```swift
/// var random = FastRandom()
/// let id = CompactUUID.random(using: &random)
/// print(id)   // 1c28caea-0eac-42af-8f6d-9e27a947a541
/// ```
public struct CompactUUID: Sendable, Hashable, CustomStringConvertible {
    /// The first and the last 64 bits.
    public let high: UInt64
    public let low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The length of the text: 32 hexadecimal digits and 4 hyphens.
    public static let textLength = 36

    /// A random (version 4, variant 10) UUID drawn from `generator`.
    public static func random(using generator: inout some RandomNumberGenerator) -> CompactUUID {
        let high = generator.next()
        let low = generator.next()
        return CompactUUID(high: (high & ~0xF000) | 0x4000,                 // version 4
                           low: (low & ~(0xC000 << 48)) | (0x8000 << 48))  // variant 10
    }

    /// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in lower-case hexadecimal.
    public var description: String {
        var text = [UInt8](repeating: UInt8(ascii: "-"), count: Self.textLength)
        // Groups of 8, 4, 4, 4 and 12 digits: each written from its last digit back, four bits at a time.
        func group(_ word: UInt64, digitCount: Int, at start: Int) {
            var rest = word
            for offset in stride(from: start + digitCount - 1, through: start, by: -1) {
                text[offset] = Self.hexDigits[Int(rest & 0xF)]
                rest >>= 4
            }
        }
        group(high >> 32, digitCount: 8, at: 0)
        group(high >> 16 & 0xFFFF, digitCount: 4, at: 9)
        group(high & 0xFFFF, digitCount: 4, at: 14)
        group(low >> 48, digitCount: 4, at: 19)
        group(low & 0xFFFF_FFFF_FFFF, digitCount: 12, at: 24)
        return String(decoding: text, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}

/// A fast random generator (xoshiro256**) seeded from the system's: for identifiers made often (a playback id per
/// playback), where asking the system for each would cost a system call, and which need to be unique rather than
/// secret.
public struct FastRandom: RandomNumberGenerator, Sendable {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    /// A generator seeded with 256 bits from the system's generator.
    public init() {
        var system = SystemRandomNumberGenerator()
        state = (system.next(), system.next(), system.next(), system.next())
        if state == (0, 0, 0, 0) { state.0 = 1 }   // the one state the algorithm cannot leave
    }

    /// A generator whose outputs follow from `seed` alone (its state is four outputs of SplitMix64 from it, as the
    /// algorithm's authors advise): a seeded population of simulated viewers is the same on every machine.
    public init(seed: UInt64) {
        var mixer = seed
        func splitMix() -> UInt64 {
            mixer &+= 0x9E37_79B9_7F4A_7C15
            var value = mixer
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            return value ^ (value >> 31)
        }
        state = (splitMix(), splitMix(), splitMix(), splitMix())
        if state == (0, 0, 0, 0) { state.0 = 1 }
    }

    /// A generator with a given state (for tests: the algorithm's published outputs).
    init(state: (UInt64, UInt64, UInt64, UInt64)) { self.state = state }

    public mutating func next() -> UInt64 {
        let result = (state.1 &* 5).rotatedLeft(by: 7) &* 9
        let shifted = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= shifted
        state.3 = state.3.rotatedLeft(by: 45)
        return result
    }
}

extension UInt64 {
    fileprivate func rotatedLeft(by count: UInt64) -> UInt64 { (self << count) | (self >> (64 - count)) }
}
