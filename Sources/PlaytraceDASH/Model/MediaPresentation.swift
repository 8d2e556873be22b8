public import PlaytraceCore

/// An MPD as written: the presentation's attributes and its periods, each element's own attributes (nothing
/// inherited yet), with the problems the lenient reading met. ``MPDParser`` makes it.
public struct MediaPresentation: Sendable, Hashable {
    /// `MPD@type`.
    public enum PresentationType: String, Sendable, Hashable {
        /// On demand: every segment exists.
        case `static`
        /// Live: segments become available over time, and the MPD may be updated.
        case dynamic
    }

    public var type: PresentationType = .static
    public var id: String?
    public var profiles: [String] = []
    public var availabilityStartTime: StreamDate?
    public var availabilityEndTime: StreamDate?
    public var publishTime: StreamDate?
    public var mediaPresentationDuration: Duration?
    /// How long the MPD stays valid after it was fetched; `nil`: it is never updated.
    public var minimumUpdatePeriod: Duration?
    public var minBufferTime: Duration?
    /// The DVR window of a dynamic MPD; `nil`: from the availability start on.
    public var timeShiftBufferDepth: Duration?
    public var suggestedPresentationDelay: Duration?
    public var maxSegmentDuration: Duration?
    /// `Location` elements: where to fetch the MPD's updates.
    public var locations: [String] = []
    /// `UTCTiming` elements, in the MPD's order (its order of preference).
    public var utcTimings: [UTCTiming] = []
    public var baseURLs: [BaseURL] = []
    public var essentialProperties: [Descriptor] = []
    public var supplementalProperties: [Descriptor] = []
    public var periods: [Period] = []
    /// What was read differently from what was written, or left out, with its line.
    public var problems: [MPDProblem] = []

    public init() {}
}

/// A `UTCTiming` element: how a client synchronises its clock with the server's.
public struct UTCTiming: Sendable, Hashable {
    public enum Scheme: Sendable, Hashable {
        /// `urn:mpeg:dash:utc:http-iso:2014`: a GET whose body is an ISO 8601 time.
        case httpISO
        /// `urn:mpeg:dash:utc:http-xsdate:2014`: a GET whose body is an `xs:dateTime`.
        case httpXSDate
        /// `urn:mpeg:dash:utc:http-head:2014`: the `Date` header of a HEAD.
        case httpHead
        /// `urn:mpeg:dash:utc:direct:2014`: `@value` is the time.
        case direct
        /// NTP, HTTP-NTP or SNTP (`urn:mpeg:dash:utc:ntp:2014`…): listed, not used.
        case ntp(String)
        /// Any other scheme (listed, not used).
        case other(String)

        public init(uri: String) {
            switch uri {
            case "urn:mpeg:dash:utc:http-iso:2014", "urn:mpeg:dash:utc:http-iso:2012": self = .httpISO
            case "urn:mpeg:dash:utc:http-xsdate:2014", "urn:mpeg:dash:utc:http-xsdate:2012": self = .httpXSDate
            case "urn:mpeg:dash:utc:http-head:2014", "urn:mpeg:dash:utc:http-head:2012": self = .httpHead
            case "urn:mpeg:dash:utc:direct:2014", "urn:mpeg:dash:utc:direct:2012": self = .direct
            case "urn:mpeg:dash:utc:ntp:2014", "urn:mpeg:dash:utc:http-ntp:2014", "urn:mpeg:dash:utc:sntp:2014": self = .ntp(uri)
            default: self = .other(uri)
            }
        }
    }

    public var scheme: Scheme
    public var value: String
    public var line: Int

    public init(scheme: Scheme, value: String, line: Int = 0) {
        self.scheme = scheme
        self.value = value
        self.line = line
    }
}

/// A `BaseURL` element: one location of the segments below it (several at one level are alternatives, for failover).
public struct BaseURL: Sendable, Hashable {
    public var url: String
    public var serviceLocation: String?
    public var availabilityTimeOffset: Double?
    public var availabilityTimeComplete: Bool?

    public init(url: String, serviceLocation: String? = nil, availabilityTimeOffset: Double? = nil,
                availabilityTimeComplete: Bool? = nil) {
        self.url = url
        self.serviceLocation = serviceLocation
        self.availabilityTimeOffset = availabilityTimeOffset
        self.availabilityTimeComplete = availabilityTimeComplete
    }
}

/// A descriptor (`Role`, `Accessibility`, `ContentProtection`, `EssentialProperty`, `SupplementalProperty`,
/// `InbandEventStream`, `AudioChannelConfiguration`…): a scheme, a value and an id.
public struct Descriptor: Sendable, Hashable {
    public var schemeIdURI: String
    public var value: String?
    public var id: String?

    public init(schemeIdURI: String, value: String? = nil, id: String? = nil) {
        self.schemeIdURI = schemeIdURI
        self.value = value
        self.id = id
    }
}

/// A byte range of `a-b` (both included), as `@indexRange`, `@range` and `@mediaRange` write it.
public struct ByteRange: Sendable, Hashable, CustomStringConvertible {
    public var first: Int64
    public var last: Int64

    public init(first: Int64, last: Int64) {
        self.first = first
        self.last = last
    }

    /// Reads `first-last`; `nil` unless both are numbers and `first ≤ last`.
    public init?(_ text: String) {
        guard let dash = text.utf8.firstIndex(of: UInt8(ascii: "-")),
              let first = AttributeValues.decimal(String(text[..<dash])),
              let last = AttributeValues.decimal(String(text[text.utf8.index(after: dash)...])),
              first >= 0, first <= last else { return nil }
        self.init(first: first, last: last)
    }

    /// How many bytes (saturating at `Int64.max`).
    public var count: Int64 { last - first == Int64.max ? Int64.max : last - first + 1 }

    public var description: String { "\(first)-\(last)" }
}
