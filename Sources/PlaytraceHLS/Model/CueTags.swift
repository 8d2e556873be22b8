public import PlaytraceCore

/// `EXT-X-CUE-OUT[:duration]`: the legacy start of an ad break, before the segment it precedes.
public struct CueOut: Sendable, Hashable, Codable {
    /// The break's duration, when given.
    public var duration: MediaTime?
    /// Anything else after the colon that is not a plain duration (`DURATION=30,…` variants), kept as written.
    public var rawValue: String?

    public init(duration: MediaTime? = nil, rawValue: String? = nil) {
        self.duration = duration
        self.rawValue = rawValue
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
                let value = bytes[(equals + 1)..<end]
                switch Self.lowercasedKey(bytes[start..<equals]) {
                case "elapsedtime": elapsed = seconds(value)
                case "duration": duration = seconds(value)
                case "scte35": scte35 = String(decoding: UnsafeBufferPointer(rebasing: value), as: UTF8.self)
                default: break
                }
            }
            start = end + 1
        }
    }

    private static func lowercasedKey(_ key: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        guard key.count <= 16 else { return "" }
        return String(decoding: key.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}
