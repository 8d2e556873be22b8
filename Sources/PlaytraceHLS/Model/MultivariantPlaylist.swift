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
