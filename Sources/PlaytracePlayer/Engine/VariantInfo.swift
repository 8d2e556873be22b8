/// One variant (bit rate ladder rung) an engine can play.
public struct VariantInfo: Sendable, Hashable, Codable {
    /// Its position in the multivariant playlist.
    public var index: Int
    /// Declared peak bit rate, bits per second.
    public var bandwidth: Int
    /// Declared average bit rate, when given.
    public var averageBandwidth: Int?
    /// Video resolution, when given.
    public var width: Int?
    public var height: Int?
    /// Codecs, as declared.
    public var codecs: [String]
    /// The media playlist's URL.
    public var url: String
    /// The content-steering pathway the variant belongs to (its `PATHWAY-ID`; `.` when the playlist gives none),
    /// or `nil` when the stream uses no content steering.
    public var pathwayID: String?

    public init(index: Int, bandwidth: Int, averageBandwidth: Int? = nil, width: Int? = nil, height: Int? = nil,
                codecs: [String] = [], url: String, pathwayID: String? = nil) {
        self.index = index
        self.bandwidth = bandwidth
        self.averageBandwidth = averageBandwidth
        self.width = width
        self.height = height
        self.codecs = codecs
        self.url = url
        self.pathwayID = pathwayID
    }
}

/// Limits on the variants adaptive bit rate may choose.
public struct VariantLimits: Sendable, Hashable, Codable {
    /// The highest peak bit rate allowed, bits per second.
    public var maximumBandwidth: Int?
    /// The lowest peak bit rate allowed.
    public var minimumBandwidth: Int?
    /// The tallest resolution allowed, in lines.
    public var maximumHeight: Int?

    public init(maximumBandwidth: Int? = nil, minimumBandwidth: Int? = nil, maximumHeight: Int? = nil) {
        self.maximumBandwidth = maximumBandwidth
        self.minimumBandwidth = minimumBandwidth
        self.maximumHeight = maximumHeight
    }

    /// No limit.
    public static let none = VariantLimits()

    /// Whether a variant is within the limits.
    public func allows(_ variant: VariantInfo) -> Bool {
        if let maximumBandwidth, variant.bandwidth > maximumBandwidth { return false }
        if let minimumBandwidth, variant.bandwidth < minimumBandwidth { return false }
        if let maximumHeight, let height = variant.height, height > maximumHeight { return false }
        return true
    }
}

/// Why the engine changed variant.
public enum VariantSwitchReason: String, Sendable, Hashable, Codable {
    /// Measured throughput allows a higher variant.
    case throughputUp
    /// Measured throughput or the buffer calls for a lower variant.
    case throughputDown
    /// New ``VariantLimits`` exclude the current variant.
    case limits
    /// The first choice after loading.
    case initial
    /// The previous variant failed (a segment or its playlist could not be loaded): the engine moved to another.
    case failover
    /// The content-steering server put another pathway first (HLS content steering).
    case contentSteering
}
