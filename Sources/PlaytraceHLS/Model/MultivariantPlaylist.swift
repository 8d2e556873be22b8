/// A multivariant playlist (formerly "master playlist"): the variants and renditions of a presentation.
public struct MultivariantPlaylist: Sendable, Hashable, Codable {
    /// `EXT-X-VERSION`.
    public var version: Int?
    /// `EXT-X-INDEPENDENT-SEGMENTS`.
    public var hasIndependentSegments: Bool
    /// `EXT-X-START`.
    public var start: StartPoint?
    /// `EXT-X-DEFINE` tags, in order.
    public var definitions: [VariableDefinition]
    /// `EXT-X-STREAM-INF` entries, in order.
    public var variants: [VariantStream]
    /// `EXT-X-I-FRAME-STREAM-INF` entries.
    public var iFrameVariants: [IFrameVariantStream]
    /// `EXT-X-MEDIA` entries.
    public var renditions: [Rendition]
    /// `EXT-X-SESSION-DATA` entries.
    public var sessionData: [SessionData]
    /// `EXT-X-SESSION-KEY` entries.
    public var sessionKeys: [EncryptionKey]
    /// `EXT-X-CONTENT-STEERING`.
    public var contentSteering: ContentSteering?
    /// Unknown tags, in order.
    public var unknownTags: [UnknownTag]

    public init(
        version: Int? = nil, hasIndependentSegments: Bool = false, start: StartPoint? = nil,
        definitions: [VariableDefinition] = [], variants: [VariantStream] = [],
        iFrameVariants: [IFrameVariantStream] = [], renditions: [Rendition] = [], sessionData: [SessionData] = [],
        sessionKeys: [EncryptionKey] = [], contentSteering: ContentSteering? = nil, unknownTags: [UnknownTag] = []
    ) {
        self.version = version
        self.hasIndependentSegments = hasIndependentSegments
        self.start = start
        self.definitions = definitions
        self.variants = variants
        self.iFrameVariants = iFrameVariants
        self.renditions = renditions
        self.sessionData = sessionData
        self.sessionKeys = sessionKeys
        self.contentSteering = contentSteering
        self.unknownTags = unknownTags
    }

    /// The renditions of a group (`GROUP-ID`) of a type.
    public func renditions(ofType type: Rendition.MediaType, group: String) -> [Rendition] {
        renditions.filter { $0.type == type && $0.groupID == group }
    }
}

/// The attributes that `EXT-X-STREAM-INF` and `EXT-X-I-FRAME-STREAM-INF` share.
public struct StreamAttributes: Sendable, Hashable, Codable {
    /// `BANDWIDTH`: peak bit rate, bits per second.
    public var bandwidth: Int
    /// `AVERAGE-BANDWIDTH`.
    public var averageBandwidth: Int?
    /// `SCORE`.
    public var score: Double?
    /// `CODECS`.
    public var codecs: [String]
    /// `SUPPLEMENTAL-CODECS`.
    public var supplementalCodecs: String?
    /// `RESOLUTION`.
    public var resolution: Resolution?
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
    /// Attributes Playtrace does not interpret, kept for writing back.
    public var otherAttributes: AttributeList

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
        self.codecs = codecs
        self.supplementalCodecs = supplementalCodecs
        self.resolution = resolution
        self.hdcpLevel = hdcpLevel
        self.allowedCPC = allowedCPC
        self.videoRange = videoRange
        self.requiredVideoLayout = requiredVideoLayout
        self.stableVariantID = stableVariantID
        self.video = video
        self.pathwayID = pathwayID
        self.otherAttributes = otherAttributes
    }
}

/// `EXT-X-STREAM-INF` and the URI of its media playlist.
@dynamicMemberLookup
public struct VariantStream: Sendable, Hashable, Codable {
    /// The media playlist's URI.
    public var uri: String
    /// The attributes shared with I-frame variants.
    public var stream: StreamAttributes
    /// `FRAME-RATE`.
    public var frameRate: Double?
    /// `AUDIO`: the group of audio renditions.
    public var audio: String?
    /// `SUBTITLES`: the group of subtitle renditions.
    public var subtitles: String?
    /// `CLOSED-CAPTIONS`: a group, or `nil` with ``hasNoClosedCaptions`` for `NONE`.
    public var closedCaptions: String?
    /// `CLOSED-CAPTIONS=NONE`.
    public var hasNoClosedCaptions: Bool

    public init(uri: String, stream: StreamAttributes, frameRate: Double? = nil, audio: String? = nil,
                subtitles: String? = nil, closedCaptions: String? = nil, hasNoClosedCaptions: Bool = false) {
        self.uri = uri
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
public struct IFrameVariantStream: Sendable, Hashable, Codable {
    /// `URI`: the I-frame playlist.
    public var uri: String
    public var stream: StreamAttributes

    public init(uri: String, stream: StreamAttributes) {
        self.uri = uri
        self.stream = stream
    }

    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<StreamAttributes, Value>) -> Value {
        get { stream[keyPath: keyPath] }
        set { stream[keyPath: keyPath] = newValue }
    }
}

/// `EXT-X-MEDIA`: an alternative rendition (audio, subtitles, closed captions, video angle).
public struct Rendition: Sendable, Hashable, Codable {
    /// `TYPE`.
    public enum MediaType: String, Sendable, Hashable, Codable {
        case audio = "AUDIO"
        case video = "VIDEO"
        case subtitles = "SUBTITLES"
        case closedCaptions = "CLOSED-CAPTIONS"
    }

    public var type: MediaType
    /// `URI` (absent for renditions muxed into the variant, and for closed captions).
    public var uri: String?
    /// `GROUP-ID`.
    public var groupID: String
    /// `LANGUAGE` (RFC 5646).
    public var language: String?
    /// `ASSOC-LANGUAGE`.
    public var associatedLanguage: String?
    /// `NAME`.
    public var name: String
    /// `STABLE-RENDITION-ID`.
    public var stableRenditionID: String?
    /// `DEFAULT=YES`.
    public var isDefault: Bool
    /// `AUTOSELECT=YES`.
    public var isAutoselect: Bool
    /// `FORCED=YES`.
    public var isForced: Bool
    /// `INSTREAM-ID` (closed captions).
    public var instreamID: String?
    /// `BIT-DEPTH`.
    public var bitDepth: Int?
    /// `SAMPLE-RATE`.
    public var sampleRate: Int?
    /// `CHARACTERISTICS`, split on commas.
    public var characteristics: [String]
    /// `CHANNELS`.
    public var channels: String?
    /// Attributes Playtrace does not interpret, kept for writing back.
    public var otherAttributes: AttributeList

    public init(
        type: MediaType, uri: String? = nil, groupID: String, language: String? = nil,
        associatedLanguage: String? = nil, name: String, stableRenditionID: String? = nil, isDefault: Bool = false,
        isAutoselect: Bool = false, isForced: Bool = false, instreamID: String? = nil, bitDepth: Int? = nil,
        sampleRate: Int? = nil, characteristics: [String] = [], channels: String? = nil,
        otherAttributes: AttributeList = AttributeList()
    ) {
        self.type = type
        self.uri = uri
        self.groupID = groupID
        self.language = language
        self.associatedLanguage = associatedLanguage
        self.name = name
        self.stableRenditionID = stableRenditionID
        self.isDefault = isDefault
        self.isAutoselect = isAutoselect
        self.isForced = isForced
        self.instreamID = instreamID
        self.bitDepth = bitDepth
        self.sampleRate = sampleRate
        self.characteristics = characteristics
        self.channels = channels
        self.otherAttributes = otherAttributes
    }
}

/// `EXT-X-SESSION-DATA`.
public struct SessionData: Sendable, Hashable, Codable {
    /// `DATA-ID`, reverse-DNS.
    public var dataID: String
    /// `VALUE` (exactly one of value and URI).
    public var value: String?
    /// `URI`.
    public var uri: String?
    /// `FORMAT`: `JSON` (default) or `RAW`.
    public var format: String?
    /// `LANGUAGE`.
    public var language: String?

    public init(dataID: String, value: String? = nil, uri: String? = nil, format: String? = nil,
                language: String? = nil) {
        self.dataID = dataID
        self.value = value
        self.uri = uri
        self.format = format
        self.language = language
    }
}

/// `EXT-X-CONTENT-STEERING`.
public struct ContentSteering: Sendable, Hashable, Codable {
    /// `SERVER-URI`: the steering manifest.
    public var serverURI: String
    /// `PATHWAY-ID`: the pathway to start with.
    public var pathwayID: String?

    public init(serverURI: String, pathwayID: String? = nil) {
        self.serverURI = serverURI
        self.pathwayID = pathwayID
    }
}

/// A parsed playlist: multivariant or media.
public enum Playlist: Sendable, Hashable, Codable {
    case multivariant(MultivariantPlaylist)
    case media(MediaPlaylist)
}
