/// The attributes that `EXT-X-STREAM-INF` and `EXT-X-I-FRAME-STREAM-INF` share.
public struct StreamAttributes: Sendable, Hashable {
    /// `BANDWIDTH`: peak bit rate, bits per second.
    public var bandwidth: Int
    /// `AVERAGE-BANDWIDTH`.
    public var averageBandwidth: Int?
    /// `SCORE`.
    public var score: Double?
    /// `RESOLUTION`.
    public var resolution: Resolution?
    /// Attributes Playtrace does not interpret, kept for writing back.
    public var otherAttributes: AttributeList
    /// `CODECS` as written: its items joined by commas (``codecs`` splits them).
    var codecsText: String?

    /// `CODECS`, one format per item. The items are kept joined by commas, as the attribute is written: an item set
    /// with a comma in it reads back as two, and empty items are left out.
    public var codecs: [String] {
        get { codecsText.map { $0.split(separator: ",").map(String.init) } ?? [] }
        set {
            let items = newValue.filter { !$0.isEmpty }
            codecsText = items.isEmpty ? nil : items.joined(separator: ",")
        }
    }

    /// `SUPPLEMENTAL-CODECS`.
    public var supplementalCodecs: String?
    /// `HDCP-LEVEL`.
    public var hdcpLevel: String?
    /// `ALLOWED-CPC`.
    public var allowedCPC: String?
    /// `VIDEO-RANGE`: SDR, HLG or PQ.
    public var videoRange: String?
    /// `REQ-VIDEO-LAYOUT`.
    public var requiredVideoLayout: String?
    /// `STABLE-VARIANT-ID`.
    public var stableVariantID: String?
    /// `VIDEO`: the group of video renditions.
    public var video: String?
    /// `PATHWAY-ID` (content steering).
    public var pathwayID: String?

    /// Stream attributes.
    ///
    /// - Parameters:
    ///   - bandwidth: `BANDWIDTH`, bits per second.
    ///   - averageBandwidth: `AVERAGE-BANDWIDTH`, bits per second.
    ///   - score: `SCORE`.
    ///   - codecs: `CODECS`, one format per item (empty items are left out).
    ///   - supplementalCodecs: `SUPPLEMENTAL-CODECS`.
    ///   - resolution: `RESOLUTION`.
    ///   - hdcpLevel: `HDCP-LEVEL`.
    ///   - allowedCPC: `ALLOWED-CPC`.
    ///   - videoRange: `VIDEO-RANGE`.
    ///   - requiredVideoLayout: `REQ-VIDEO-LAYOUT`.
    ///   - stableVariantID: `STABLE-VARIANT-ID`.
    ///   - video: `VIDEO`, the group of video renditions.
    ///   - pathwayID: `PATHWAY-ID`.
    ///   - otherAttributes: attributes kept as written, for writing back.
    public init(
        bandwidth: Int, averageBandwidth: Int? = nil, score: Double? = nil, codecs: [String] = [],
        supplementalCodecs: String? = nil, resolution: Resolution? = nil, hdcpLevel: String? = nil,
        allowedCPC: String? = nil, videoRange: String? = nil, requiredVideoLayout: String? = nil,
        stableVariantID: String? = nil, video: String? = nil, pathwayID: String? = nil,
        otherAttributes: AttributeList = AttributeList()
    ) {
        self.bandwidth = bandwidth
        self.averageBandwidth = averageBandwidth
        self.score = score
        self.resolution = resolution
        self.otherAttributes = otherAttributes
        self.supplementalCodecs = supplementalCodecs
        self.hdcpLevel = hdcpLevel
        self.allowedCPC = allowedCPC
        self.videoRange = videoRange
        self.requiredVideoLayout = requiredVideoLayout
        self.stableVariantID = stableVariantID
        self.video = video
        self.pathwayID = pathwayID
        self.codecs = codecs
    }
}

/// `EXT-X-STREAM-INF` and the URI of its media playlist.
@dynamicMemberLookup
public struct VariantStream: Sendable, Hashable {
    /// The media playlist's URI.
    public var uri: String {
        get { uriText.string }
        set { uriText = SegmentURI(newValue) }
    }

    /// ``uri``, kept as bytes shared with the other variants of the parse.
    var uriText: SegmentURI
    /// The attributes shared with I-frame variants.
    public var stream: StreamAttributes
    /// `FRAME-RATE`.
    public var frameRate: Double?
    /// `CLOSED-CAPTIONS=NONE`.
    public var hasNoClosedCaptions: Bool
    /// `AUDIO`: the group of audio renditions.
    public var audio: String?
    /// `SUBTITLES`: the group of subtitle renditions.
    public var subtitles: String?
    /// `CLOSED-CAPTIONS`: a group, or `nil` with ``hasNoClosedCaptions`` for `NONE`.
    public var closedCaptions: String?

    /// A variant stream.
    ///
    /// - Parameters:
    ///   - uri: the media playlist's URI.
    ///   - stream: the attributes shared with I-frame variants.
    ///   - frameRate: `FRAME-RATE`.
    ///   - audio: `AUDIO`, the group of audio renditions.
    ///   - subtitles: `SUBTITLES`, the group of subtitle renditions.
    ///   - closedCaptions: `CLOSED-CAPTIONS`, a group.
    ///   - hasNoClosedCaptions: `CLOSED-CAPTIONS=NONE`.
    public init(uri: String, stream: StreamAttributes, frameRate: Double? = nil, audio: String? = nil,
                subtitles: String? = nil, closedCaptions: String? = nil, hasNoClosedCaptions: Bool = false) {
        self.init(uriText: SegmentURI(uri), stream: stream, frameRate: frameRate, audio: audio, subtitles: subtitles,
                  closedCaptions: closedCaptions, hasNoClosedCaptions: hasNoClosedCaptions)
    }

    /// A variant whose URI the parser stored.
    init(uriText: SegmentURI, stream: StreamAttributes, frameRate: Double?, audio: String?, subtitles: String?,
         closedCaptions: String?, hasNoClosedCaptions: Bool) {
        self.uriText = uriText
        self.stream = stream
        self.frameRate = frameRate
        self.audio = audio
        self.subtitles = subtitles
        self.closedCaptions = closedCaptions
        self.hasNoClosedCaptions = hasNoClosedCaptions
    }

    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<StreamAttributes, Value>) -> Value {
        get { stream[keyPath: keyPath] }
        set { stream[keyPath: keyPath] = newValue }
    }
}

/// `EXT-X-I-FRAME-STREAM-INF`.
@dynamicMemberLookup
public struct IFrameVariantStream: Sendable, Hashable {
    /// `URI`: the I-frame playlist.
    public var uri: String {
        get { uriText.string }
        set { uriText = SegmentURI(newValue) }
    }

    /// ``uri``, kept as bytes shared with the other variants of the parse.
    var uriText: SegmentURI
    /// The attributes shared with the variants.
    public var stream: StreamAttributes

    /// An I-frame variant stream.
    ///
    /// - Parameters:
    ///   - uri: `URI`, the I-frame playlist.
    ///   - stream: the attributes shared with the variants.
    public init(uri: String, stream: StreamAttributes) {
        self.init(uriText: SegmentURI(uri), stream: stream)
    }

    init(uriText: SegmentURI, stream: StreamAttributes) {
        self.uriText = uriText
        self.stream = stream
    }

    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<StreamAttributes, Value>) -> Value {
        get { stream[keyPath: keyPath] }
        set { stream[keyPath: keyPath] = newValue }
    }
}

// The coded forms name the attributes as the properties do.

extension StreamAttributes: Codable {
    private enum CodingKeys: String, CodingKey {
        case bandwidth, averageBandwidth, score, codecs, supplementalCodecs, resolution, hdcpLevel, allowedCPC
        case videoRange, requiredVideoLayout, stableVariantID, video, pathwayID, otherAttributes
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            bandwidth: try container.decode(Int.self, forKey: .bandwidth),
            averageBandwidth: try container.decodeIfPresent(Int.self, forKey: .averageBandwidth),
            score: try container.decodeIfPresent(Double.self, forKey: .score),
            codecs: try container.decode([String].self, forKey: .codecs),
            supplementalCodecs: try container.decodeIfPresent(String.self, forKey: .supplementalCodecs),
            resolution: try container.decodeIfPresent(Resolution.self, forKey: .resolution),
            hdcpLevel: try container.decodeIfPresent(String.self, forKey: .hdcpLevel),
            allowedCPC: try container.decodeIfPresent(String.self, forKey: .allowedCPC),
            videoRange: try container.decodeIfPresent(String.self, forKey: .videoRange),
            requiredVideoLayout: try container.decodeIfPresent(String.self, forKey: .requiredVideoLayout),
            stableVariantID: try container.decodeIfPresent(String.self, forKey: .stableVariantID),
            video: try container.decodeIfPresent(String.self, forKey: .video),
            pathwayID: try container.decodeIfPresent(String.self, forKey: .pathwayID),
            otherAttributes: try container.decode(AttributeList.self, forKey: .otherAttributes))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(bandwidth, forKey: .bandwidth)
        try container.encodeIfPresent(averageBandwidth, forKey: .averageBandwidth)
        try container.encodeIfPresent(score, forKey: .score)
        try container.encode(codecs, forKey: .codecs)
        try container.encodeIfPresent(supplementalCodecs, forKey: .supplementalCodecs)
        try container.encodeIfPresent(resolution, forKey: .resolution)
        try container.encodeIfPresent(hdcpLevel, forKey: .hdcpLevel)
        try container.encodeIfPresent(allowedCPC, forKey: .allowedCPC)
        try container.encodeIfPresent(videoRange, forKey: .videoRange)
        try container.encodeIfPresent(requiredVideoLayout, forKey: .requiredVideoLayout)
        try container.encodeIfPresent(stableVariantID, forKey: .stableVariantID)
        try container.encodeIfPresent(video, forKey: .video)
        try container.encodeIfPresent(pathwayID, forKey: .pathwayID)
        try container.encode(otherAttributes, forKey: .otherAttributes)
    }
}

extension VariantStream: Codable {
    private enum CodingKeys: String, CodingKey {
        case uri, stream, frameRate, audio, subtitles, closedCaptions, hasNoClosedCaptions
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            uri: try container.decode(String.self, forKey: .uri),
            stream: try container.decode(StreamAttributes.self, forKey: .stream),
            frameRate: try container.decodeIfPresent(Double.self, forKey: .frameRate),
            audio: try container.decodeIfPresent(String.self, forKey: .audio),
            subtitles: try container.decodeIfPresent(String.self, forKey: .subtitles),
            closedCaptions: try container.decodeIfPresent(String.self, forKey: .closedCaptions),
            hasNoClosedCaptions: try container.decode(Bool.self, forKey: .hasNoClosedCaptions))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(uri, forKey: .uri)
        try container.encode(stream, forKey: .stream)
        try container.encodeIfPresent(frameRate, forKey: .frameRate)
        try container.encodeIfPresent(audio, forKey: .audio)
        try container.encodeIfPresent(subtitles, forKey: .subtitles)
        try container.encodeIfPresent(closedCaptions, forKey: .closedCaptions)
        try container.encode(hasNoClosedCaptions, forKey: .hasNoClosedCaptions)
    }
}

extension IFrameVariantStream: Codable {
    private enum CodingKeys: String, CodingKey {
        case uri, stream
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(uri: try container.decode(String.self, forKey: .uri),
                  stream: try container.decode(StreamAttributes.self, forKey: .stream))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(uri, forKey: .uri)
        try container.encode(stream, forKey: .stream)
    }
}
