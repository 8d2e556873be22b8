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
        if let seconds = Double(text), seconds.isFinite, seconds >= 0 {
            self.init(duration: MediaTime(seconds: seconds))
            return
        }
        var duration: MediaTime?
        var id: String?
        var scte35: String?
        for (key, value) in LegacyCueAttributes.pairs(text) {
            switch key {
            case "duration":
                if let seconds = Double(value), seconds.isFinite, seconds >= 0 { duration = MediaTime(seconds: seconds) }
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
        self = text.withUTF8 { CueOutContinuation(parsing: $0, rawValue: String(decoding: $0, as: UTF8.self)) }
    }

    init(parsing bytes: UnsafeBufferPointer<UInt8>, rawValue: String) {
        self.init(rawValue: rawValue)
        func seconds(_ slice: Slice<UnsafeBufferPointer<UInt8>>) -> MediaTime? {
            ByteScanning.decimal(UnsafeBufferPointer(rebasing: slice)).map(MediaTime.init(seconds:))
        }
        if !bytes.contains(0x3D), let slash = bytes.firstIndex(of: 0x2F) {
            elapsed = seconds(bytes[..<slash])
            duration = seconds(bytes[(slash + 1)...])
            return
        }
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: 0x2C) ?? bytes.endIndex
            if let equals = bytes[start..<end].firstIndex(of: 0x3D) {
                let key = bytes[start..<equals]
                let value = bytes[(equals + 1)..<end]
                if Self.key(key, is: "elapsedtime") {
                    elapsed = seconds(value)
                } else if Self.key(key, is: "duration") {
                    duration = seconds(value)
                } else if Self.key(key, is: "scte35") {
                    scte35 = String(decoding: UnsafeBufferPointer(rebasing: value), as: UTF8.self)
                }
            }
            start = end + 1
        }
    }

    /// Whether `key` spells `lowercased` in any letter case.
    private static func key(_ key: Slice<UnsafeBufferPointer<UInt8>>, is lowercased: StaticString) -> Bool {
        guard key.count == lowercased.utf8CodeUnitCount else { return false }
        return lowercased.withUTF8Buffer { expected in
            zip(key, expected).allSatisfy { byte, letter in (byte | 0x20) == letter }
        }
    }
}
