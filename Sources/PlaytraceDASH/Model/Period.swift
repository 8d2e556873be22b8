/// A `Period` as written: its timing, its adaptation sets and its events.
public struct Period: Sendable, Hashable {
    public var id: String?
    /// `@start` (offset from the presentation's start); resolved with the five rules of ISO/IEC 23009-1 5.3.2.1
    /// when absent.
    public var start: Duration?
    public var duration: Duration?
    public var baseURLs: [BaseURL] = []
    public var segmentInformation = SegmentInformation()
    public var adaptationSets: [AdaptationSet] = []
    public var eventStreams: [EventStream] = []
    public var essentialProperties: [Descriptor] = []
    /// Period continuity and connectivity (`urn:mpeg:dash:period-continuity:2015`, `…period-connectivity:2015`) are
    /// among them.
    public var supplementalProperties: [Descriptor] = []
    public var assetIdentifier: Descriptor?
    /// The line of its element.
    public var line = 0

    public init() {}
}

/// An `AdaptationSet` as written: the attributes its representations inherit, and the representations.
public struct AdaptationSet: Sendable, Hashable {
    public var id: String?
    public var contentType: String?
    public var lang: String?
    public var group: Int64?
    public var segmentAlignment: Bool?
    public var bitstreamSwitching: Bool?
    public var common = CommonAttributes()
    public var roles: [Descriptor] = []
    public var accessibility: [Descriptor] = []
    public var labels: [String] = []
    public var baseURLs: [BaseURL] = []
    public var segmentInformation = SegmentInformation()
    public var representations: [Representation] = []
    public var line = 0

    public init() {}
}

/// A `Representation` as written.
public struct Representation: Sendable, Hashable {
    public var id: String?
    /// `@bandwidth`, bits per second.
    public var bandwidth: Int64?
    public var qualityRanking: Int64?
    public var dependencyID: [String] = []
    public var common = CommonAttributes()
    public var baseURLs: [BaseURL] = []
    public var segmentInformation = SegmentInformation()
    public var line = 0

    public init() {}
}

/// The attributes and elements common to adaptation sets and representations (ISO/IEC 23009-1 5.3.7), inherited by a
/// representation from its adaptation set when it has none of its own.
public struct CommonAttributes: Sendable, Hashable {
    public var mimeType: String?
    public var codecs: String?
    public var width: Int64?
    public var height: Int64?
    /// `@frameRate` as written (`25`, `30000/1001`).
    public var frameRate: FrameRate?
    public var sar: String?
    public var audioSamplingRate: String?
    public var audioChannelConfiguration: [Descriptor] = []
    public var contentProtection: [Descriptor] = []
    public var essentialProperties: [Descriptor] = []
    public var supplementalProperties: [Descriptor] = []
    public var inbandEventStreams: [Descriptor] = []
    public var producerReferenceTimes: [ProducerReferenceTime] = []
    public var startWithSAP: Int64?
    public var maxPlayoutRate: Double?

    public init() {}
}

/// A frame rate, `n` or `n/d`.
public struct FrameRate: Sendable, Hashable, CustomStringConvertible {
    public var numerator: Int64
    public var denominator: Int64

    /// Reads `25` or `30000/1001`; `nil` for anything else, or a zero or negative part.
    public init?(_ text: String) {
        // Read in place (an MPD states one per representation): no split, no array.
        let slash = text.utf8.firstIndex(of: UInt8(ascii: "/"))
        guard let numerator = AttributeValues.decimal(String(text[..<(slash ?? text.endIndex)])), numerator > 0 else { return nil }
        var denominator: Int64? = 1
        if let slash { denominator = AttributeValues.decimal(String(text[text.utf8.index(after: slash)...])) }
        guard let denominator, denominator > 0 else { return nil }
        self.numerator = numerator
        self.denominator = denominator
    }

    public var framesPerSecond: Double { Double(numerator) / Double(denominator) }
    public var description: String { denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)" }
}

/// The segment addressing written at one level (period, adaptation set or representation): at most one of each
/// kind; a representation's effective addressing takes each attribute from the nearest level that has it.
public struct SegmentInformation: Sendable, Hashable {
    public var template: SegmentTemplate?
    public var base: SegmentBase?
    public var list: SegmentList?

    public init() {}

    public var isEmpty: Bool { template == nil && base == nil && list == nil }
}

/// A `SegmentTemplate` as written (every attribute optional, for inheritance).
public struct SegmentTemplate: Sendable, Hashable {
    public var media: String?
    public var initialization: String?
    public var index: String?
    public var timescale: Int64?
    /// `@duration`, in the timescale's ticks (simple addressing).
    public var duration: Int64?
    public var startNumber: Int64?
    public var endNumber: Int64?
    public var presentationTimeOffset: Int64?
    public var availabilityTimeOffset: Double?
    /// The `S` elements of its `SegmentTimeline`, when it has one.
    public var timeline: [SegmentTimeline.Entry]?
    public var line = 0

    public init() {}
}

/// A `SegmentBase` as written: one segment per representation, indexed by its `sidx`.
public struct SegmentBase: Sendable, Hashable {
    public var timescale: Int64?
    public var presentationTimeOffset: Int64?
    public var indexRange: ByteRange?
    /// `Initialization`: a URL (`@sourceURL`, else the representation's) and a byte range.
    public var initialization: URLRange?
    public var availabilityTimeOffset: Double?
    public var line = 0

    public init() {}
}

/// A `SegmentList` as written: each segment's URL listed.
public struct SegmentList: Sendable, Hashable {
    public var timescale: Int64?
    public var duration: Int64?
    public var startNumber: Int64?
    public var presentationTimeOffset: Int64?
    public var initialization: URLRange?
    public var segmentURLs: [URLRange] = []
    public var timeline: [SegmentTimeline.Entry]?
    public var line = 0

    public init() {}
}

/// A URL (relative as written, `nil`: the base URL itself) and an optional byte range of it.
public struct URLRange: Sendable, Hashable {
    public var url: String?
    public var range: ByteRange?

    public init(url: String? = nil, range: ByteRange? = nil) {
        self.url = url
        self.range = range
    }
}
