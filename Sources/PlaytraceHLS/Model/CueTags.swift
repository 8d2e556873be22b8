public import PlaytraceCore

/// `EXT-X-CUE-OUT[:duration]`: the legacy start of an ad break, before the segment it precedes.
///
/// Encoders write it in several forms: `EXT-X-CUE-OUT`, `EXT-X-CUE-OUT:30.000`, `EXT-X-CUE-OUT:DURATION=30` and
/// Envivio's `EXT-X-CUE-OUT:DURATION=366,ID=2,CUE="<base64 SCTE-35>"`; each is read, and written back as it was.
public struct CueOut: Sendable, Hashable, Codable {
    /// The break's duration, when given.
    public var duration: MediaTime?
    /// Anything else after the colon that is not a plain duration (`DURATION=30,…` variants), kept as written.
    public var rawValue: String?
    /// The break's ID (`ID=`), when given.
    public var id: String?
    /// The SCTE-35 message that opened the break (`CUE=`), base64.
    public var scte35: String?

    public init(duration: MediaTime? = nil, rawValue: String? = nil, id: String? = nil, scte35: String? = nil) {
        self.duration = duration
        self.rawValue = rawValue
        self.id = id
        self.scte35 = scte35
    }

    /// Reads the text after `EXT-X-CUE-OUT:`; nil when it holds no duration, no ID and no message.
    init?(parsing text: String) {
        if let seconds = Double(text) {
            // A plain number past the documents' range is no duration: the tag is then unreadable (listed).
            guard let duration = MediaTime(documentSeconds: seconds) else { return nil }
            self.init(duration: duration)
            return
        }
        var duration: MediaTime?
        var id: String?
        var scte35: String?
        for (key, value) in LegacyCueAttributes.pairs(text) {
            switch key {
            case "duration":
                duration = Double(value).flatMap { MediaTime(documentSeconds: $0) }
            case "id": id = value
            case "cue": scte35 = value
            default: break
            }
        }
        guard duration != nil || id != nil || scte35 != nil else { return nil }
        self.init(duration: duration, rawValue: text, id: id, scte35: scte35)
    }
}

/// The `KEY=VALUE,KEY="VALUE"` lists of legacy cue tags, with keys in any letter case.
enum LegacyCueAttributes {
    /// The pairs, keys lowercased, values without their quotes.
    static func pairs(_ text: String) -> [(String, String)] {
        var pairs: [(String, String)] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "=") else { break }
            let key = String(rest[..<equals].filter { $0 != " " && $0 != "\t" }).lowercased()
            var valueStart = rest.index(after: equals)
            let value: Substring
            if valueStart < rest.endIndex, rest[valueStart] == "\"" {
                valueStart = rest.index(after: valueStart)
                let close = rest[valueStart...].firstIndex(of: "\"") ?? rest.endIndex
                value = rest[valueStart..<close]
                rest = close < rest.endIndex ? rest[rest.index(after: close)...] : ""
                if let comma = rest.firstIndex(of: ",") { rest = rest[rest.index(after: comma)...] } else { rest = "" }
            } else {
                let comma = rest[valueStart...].firstIndex(of: ",") ?? rest.endIndex
                value = rest[valueStart..<comma]
                rest = comma < rest.endIndex ? rest[rest.index(after: comma)...] : ""
            }
            pairs.append((key, String(value)))
        }
        return pairs
    }
}

/// `EXT-X-CUE-OUT-CONT`: marks a segment inside an ad break, usually with the time elapsed and the duration.
public struct CueOutContinuation: Sendable, Hashable, Codable {
    /// Time elapsed in the break at this segment (`ElapsedTime=` or the first number of `a/b`).
    public var elapsed: MediaTime?
    /// The break's duration (`Duration=` or the second number of `a/b`).
    public var duration: MediaTime?
    /// A SCTE-35 message carried along (`SCTE35=`), base64.
    public var scte35: String?
    /// The text after the colon, as written.
    public var rawValue: String?

    public init(elapsed: MediaTime? = nil, duration: MediaTime? = nil, scte35: String? = nil, rawValue: String? = nil) {
        self.elapsed = elapsed
        self.duration = duration
        self.scte35 = scte35
        self.rawValue = rawValue
    }

    /// Reads the text after `EXT-X-CUE-OUT-CONT:` in either of its two common forms:
    /// `ElapsedTime=5.0,Duration=30,SCTE35=…` or `5.0/30`.
    public init(parsing text: String) {
        var text = text
        self = text.withUTF8Span { CueOutContinuation(parsing: $0, rawValue: ByteScanning.string($0)) }
    }

    init(parsing bytes: Span<UInt8>, rawValue: String) {
        self.init(rawValue: rawValue)
        let slash = ByteScanning.firstIndex(of: 0x2F, or: 0x3D, in: bytes, from: 0)
        if slash < bytes.count, bytes[slash] == 0x2F, ByteScanning.firstIndex(of: 0x3D, or: 0x3D, in: bytes, from: slash) == bytes.count {
            elapsed = Self.seconds(bytes.extracting(..<slash))
            duration = Self.seconds(bytes.extracting((slash + 1)...))
            return
        }
        var start = 0
        while start < bytes.count {
            let end = ByteScanning.firstIndex(of: 0x2C, or: 0x2C, in: bytes, from: start)
            let field = bytes.extracting(start..<end)
            let equals = ByteScanning.firstIndex(of: 0x3D, or: 0x3D, in: field, from: 0)
            if equals < field.count {
                let key = field.extracting(..<equals)
                let value = field.extracting((equals + 1)...)
                if Self.key(key, is: "elapsedtime") {
                    elapsed = Self.seconds(value)
                } else if Self.key(key, is: "duration") {
                    duration = Self.seconds(value)
                } else if Self.key(key, is: "scte35") {
                    scte35 = ByteScanning.string(value)
                }
            }
            start = end + 1
        }
    }

    private static func seconds(_ bytes: Span<UInt8>) -> MediaTime? {
        ByteScanning.decimal(bytes).flatMap { MediaTime(documentSeconds: $0) }
    }

    /// Whether `key` spells `lowercased` in any letter case.
    private static func key(_ key: Span<UInt8>, is lowercased: StaticString) -> Bool {
        guard key.count == lowercased.utf8CodeUnitCount else { return false }
        return lowercased.withSpan { expected in
            for index in key.indices where key[index] | 0x20 != expected[index] { return false }
            return true
        }
    }
}
