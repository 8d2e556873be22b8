public import PlaytraceCore

/// A byte range within a resource: `length` bytes starting at `offset`.
///
/// In `EXT-X-BYTERANGE` the offset may be omitted, meaning "just after the previous sub-range of the same
/// resource"; the parser resolves it, so ``offset`` is always known after parsing.
public struct ByteRange: Sendable, Hashable, Codable {
    /// The number of bytes.
    public var length: Int
    /// The first byte, or `nil` when it follows the previous range of the same resource.
    public var offset: Int?

    public init(length: Int, offset: Int? = nil) {
        self.length = length
        self.offset = offset
    }

    /// `length[@offset]`, as written in playlists.
    public var serialized: String { offset.map { "\(length)@\($0)" } ?? "\(length)" }
}

/// A video resolution in pixels.
public struct Resolution: Sendable, Hashable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `WIDTHxHEIGHT`.
    public var description: String { "\(width)x\(height)" }
}

/// `EXT-X-START`: where a client should start playing by default.
public struct StartPoint: Sendable, Hashable, Codable {
    /// Offset from the start of the playlist, or from its end when negative.
    public var timeOffset: MediaTime
    /// Whether playback should start exactly there rather than at the start of the segment.
    public var precise: Bool

    public init(timeOffset: MediaTime, precise: Bool = false) {
        self.timeOffset = timeOffset
        self.precise = precise
    }
}

/// `EXT-X-DEFINE`: a variable for `{$name}` substitution.
public enum VariableDefinition: Sendable, Hashable, Codable {
    /// `NAME=…,VALUE=…`: a value given in the playlist.
    case value(name: String, value: String)
    /// `IMPORT=…`: a value imported from the multivariant playlist (media playlists only).
    case `import`(name: String)
    /// `QUERYPARAM=…`: the value of a query parameter of the playlist's own URL.
    case queryParameter(name: String)

    /// The variable's name.
    public var name: String {
        switch self {
        case .value(let name, _), .import(let name), .queryParameter(let name): return name
        }
    }
}

/// A tag the parser does not know, kept verbatim (without its line break) so that it is written back.
public struct UnknownTag: Sendable, Hashable, Codable {
    /// The whole line, starting with `#EXT`.
    public var line: String

    public init(line: String) { self.line = line }

    /// The tag's name, for example `#EXT-X-MY-TAG`.
    public var name: String {
        line.firstIndex(of: ":").map { String(line[..<$0]) } ?? line
    }
}

/// `EXT-X-KEY` (or `EXT-X-SESSION-KEY`): how the following media segments are encrypted.
public struct EncryptionKey: Sendable, Hashable, Codable {
    /// The encryption method.
    public enum Method: Sendable, Hashable, Codable {
        case none
        case aes128
        case sampleAES
        case sampleAESCTR
        case other(String)

        public init(rawValue: String) {
            switch rawValue {
            case "NONE": self = .none
            case "AES-128": self = .aes128
            case "SAMPLE-AES": self = .sampleAES
            case "SAMPLE-AES-CTR": self = .sampleAESCTR
            default: self = .other(rawValue)
            }
        }

        public var rawValue: String {
            switch self {
            case .none: return "NONE"
            case .aes128: return "AES-128"
            case .sampleAES: return "SAMPLE-AES"
            case .sampleAESCTR: return "SAMPLE-AES-CTR"
            case .other(let value): return value
            }
        }
    }

    public var method: Method
    /// Where the key is obtained; required unless the method is `NONE`.
    public var uri: String?
    /// The 128-bit initialization vector, as written (`0x…`).
    public var iv: String?
    /// How the key is represented (`identity` when absent).
    public var keyFormat: String?
    /// The key format versions, as written (`1/2/5`).
    public var keyFormatVersions: String?
    /// Attributes Playtrace does not interpret, kept for writing back.
    public var otherAttributes: AttributeList

    public init(
        method: Method, uri: String? = nil, iv: String? = nil, keyFormat: String? = nil,
        keyFormatVersions: String? = nil, otherAttributes: AttributeList = AttributeList()
    ) {
        self.method = method
        self.uri = uri
        self.iv = iv
        self.keyFormat = keyFormat
        self.keyFormatVersions = keyFormatVersions
        self.otherAttributes = otherAttributes
    }
}

/// `EXT-X-MAP`: the media initialization section of the following segments.
public struct MediaInitializationSection: Sendable, Hashable, Codable {
    public var uri: String
    public var byteRange: ByteRange?
    public var otherAttributes: AttributeList

    public init(uri: String, byteRange: ByteRange? = nil, otherAttributes: AttributeList = AttributeList()) {
        self.uri = uri
        self.byteRange = byteRange
        self.otherAttributes = otherAttributes
    }
}

extension AttributeList: Codable {
    private struct Entry: Codable {
        var name: String
        var value: String
        var quoted: Bool
    }

    public init(from decoder: any Decoder) throws {
        let items = try decoder.singleValueContainer().decode([Entry].self)
        self.init(items.map { ($0.name, $0.quoted ? AttributeValue.quoted($0.value) : .unquoted($0.value)) })
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(entries.map { entry -> Entry in
            if case .quoted = entry.value { return Entry(name: entry.name, value: entry.value.text, quoted: true) }
            return Entry(name: entry.name, value: entry.value.text, quoted: false)
        })
    }
}
