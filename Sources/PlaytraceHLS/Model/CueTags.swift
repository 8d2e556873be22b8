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
        self.init(rawValue: text)
        if let slash = text.firstIndex(of: "/"), !text.contains("=") {
            elapsed = Double(text[..<slash]).map(MediaTime.init(seconds:))
            duration = Double(text[text.index(after: slash)...]).map(MediaTime.init(seconds:))
            return
        }
        for part in text.split(separator: ",") {
            guard let equals = part.firstIndex(of: "=") else { continue }
            let key = part[..<equals].lowercased()
            let value = part[part.index(after: equals)...]
            switch key {
            case "elapsedtime": elapsed = Double(value).map(MediaTime.init(seconds:))
            case "duration": duration = Double(value).map(MediaTime.init(seconds:))
            case "scte35": scte35 = String(value)
            default: break
            }
        }
    }
}
