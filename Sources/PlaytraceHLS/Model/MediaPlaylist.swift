public import PlaytraceCore

/// `EXT-X-PLAYLIST-TYPE`.
public enum PlaylistType: String, Sendable, Hashable, Codable {
    /// Segments are only ever appended.
    case event = "EVENT"
    /// The playlist never changes.
    case vod = "VOD"
}

/// A media playlist: the segments of one rendition or variant.
///
/// Segments carry the tags that precede them (``SegmentTags``); tags after the last segment are in
/// ``trailingTags``. Each segment also knows its media sequence number, discontinuity sequence number and start
/// time on the playlist's timeline, which the parser computes.
public struct MediaPlaylist: Sendable, Hashable, Codable {
    /// `EXT-X-VERSION`.
    public var version: Int?
    /// `EXT-X-TARGETDURATION`, in seconds.
    public var targetDuration: Int
    /// `EXT-X-MEDIA-SEQUENCE` (0 when absent).
    public var mediaSequence: Int
    /// `EXT-X-DISCONTINUITY-SEQUENCE` (0 when absent).
    public var discontinuitySequence: Int
    /// `EXT-X-PLAYLIST-TYPE`.
    public var playlistType: PlaylistType?
    /// `EXT-X-ENDLIST`: no segment will be added.
    public var hasEndList: Bool
    /// `EXT-X-I-FRAMES-ONLY`.
    public var isIFramesOnly: Bool
    /// `EXT-X-INDEPENDENT-SEGMENTS`.
    public var hasIndependentSegments: Bool
    /// `EXT-X-START`.
    public var start: StartPoint?
    /// `EXT-X-DEFINE` tags, in order.
    public var definitions: [VariableDefinition]
    /// `EXT-X-SERVER-CONTROL`.
    public var serverControl: ServerControl?
    /// `EXT-X-PART-INF`.
    public var partInformation: PartInformation?
    /// `EXT-X-SKIP`: segments skipped by a delta update.
    public var skip: SkipInformation?
    /// The media segments.
    public var segments: [Segment]
    /// Tags after the last segment (partial segments of the next one, date ranges, cues…).
    public var trailingTags: SegmentTags
    /// `EXT-X-PRELOAD-HINT` tags.
    public var preloadHints: [PreloadHint]
    /// `EXT-X-RENDITION-REPORT` tags.
    public var renditionReports: [RenditionReport]
    /// Unknown tags of the playlist header (before the first segment tag), in order.
    public var unknownTags: [UnknownTag]

    public init(
        version: Int? = nil, targetDuration: Int, mediaSequence: Int = 0, discontinuitySequence: Int = 0,
        playlistType: PlaylistType? = nil, hasEndList: Bool = false, isIFramesOnly: Bool = false,
        hasIndependentSegments: Bool = false, start: StartPoint? = nil, definitions: [VariableDefinition] = [],
        serverControl: ServerControl? = nil, partInformation: PartInformation? = nil,
        skip: SkipInformation? = nil, segments: [Segment] = [], trailingTags: SegmentTags = SegmentTags(),
        preloadHints: [PreloadHint] = [], renditionReports: [RenditionReport] = [], unknownTags: [UnknownTag] = []
    ) {
        self.version = version
        self.targetDuration = targetDuration
        self.mediaSequence = mediaSequence
        self.discontinuitySequence = discontinuitySequence
        self.playlistType = playlistType
        self.hasEndList = hasEndList
        self.isIFramesOnly = isIFramesOnly
        self.hasIndependentSegments = hasIndependentSegments
        self.start = start
        self.definitions = definitions
        self.serverControl = serverControl
        self.partInformation = partInformation
        self.skip = skip
        self.segments = segments
        self.trailingTags = trailingTags
        self.preloadHints = preloadHints
        self.renditionReports = renditionReports
        self.unknownTags = unknownTags
    }

    /// The sum of the segment durations.
    public var duration: MediaTime {
        MediaTime(seconds: segments.reduce(0) { $0 + $1.duration })
    }

    /// Every date range, in playlist order (including trailing ones).
    public var dateRanges: [DateRange] {
        var ranges: [DateRange] = []
        for index in segments.indices where segments[index].tags.mayHaveRareTags {
            ranges.append(contentsOf: segments[index].tags.dateRanges)
        }
        return ranges + trailingTags.dateRanges
    }

    /// Whether the playlist is finished: `EXT-X-ENDLIST` or a VOD playlist type.
    public var isFinished: Bool { hasEndList || playlistType == .vod }

    /// Recomputes each segment's media sequence, discontinuity sequence, start time and resolved byte range
    /// offsets from the playlist header and the segment tags. The parser calls it; call it after editing.
    public mutating func renumber() {
        // The parser bounds the numbers a playlist states; sums saturate here for a playlist built in code.
        var sequence = mediaSequence.addingSaturating(skip?.skippedSegments ?? 0)
        var discontinuity = discontinuitySequence
        var time = 0.0
        var nextOffsetByURI: [SegmentURI: Int] = [:]
        for index in segments.indices {
            if segments[index].tags.isDiscontinuity { discontinuity = discontinuity.addingSaturating(1) }
            segments[index].mediaSequence = sequence
            segments[index].discontinuitySequence = discontinuity
            segments[index].startTime = MediaTime(seconds: time)
            if let range = segments[index].byteRange {
                let offset = range.offset ?? nextOffsetByURI[segments[index].uriText] ?? 0
                segments[index].resolvedByteRange = ByteRange(length: range.length, offset: offset)
                nextOffsetByURI[segments[index].uriText] = offset.addingSaturating(range.length)
            } else {
                segments[index].resolvedByteRange = nil
            }
            time += segments[index].duration
            sequence = sequence.addingSaturating(1)
        }
    }
}

/// The tags that precede a media segment's URI (or that trail the playlist).
///
/// Most segments carry a date and little else, so the tags that are rare (keys, maps, date ranges, cues, parts,
/// unknown tags) are kept together out of line: an ordinary segment stays small, which keeps parsing and copying
/// long playlists fast. The properties read and write as plain stored values.
public struct SegmentTags: Sendable, Hashable {
    // (Stored in this order, the two flags fill the padding after the optional date: 40 bytes instead of 48.)
    /// `EXT-X-PROGRAM-DATE-TIME`.
    public var programDateTime: StreamDate?
    /// `EXT-X-DISCONTINUITY`.
    public var isDiscontinuity = false
    /// `EXT-X-GAP`: the segment is missing and must not be loaded.
    public var isGap = false
    /// `EXT-X-BITRATE` that starts here, in kbit/s (applies to the following segments).
    public var bitrate: Int?

    public init() {}

    /// Whether no tag was recorded.
    public var isEmpty: Bool { self == SegmentTags() }

    /// Whether the segment may carry a rare tag (key, map, date range, cue, `EXT-OATCLS-SCTE35`, part, unknown
    /// tag): `false` means it carries none, so that a pass that looks only for those skips the other segments
    /// without reading them.
    public var mayHaveRareTags: Bool { box != nil }

    /// `EXT-X-KEY` tags that start here (they apply to this and the following segments).
    public var keys: [EncryptionKey] {
        get { box?.extras.keys ?? [] }
        _modify { yield &extras.keys }
    }

    /// `EXT-X-MAP` that starts here.
    public var map: MediaInitializationSection? {
        get { box?.extras.map ?? nil }
        _modify { yield &extras.map }
    }

    /// `EXT-X-DATERANGE` tags placed here.
    public var dateRanges: [DateRange] {
        get { box?.extras.dateRanges ?? [] }
        _modify { yield &extras.dateRanges }
    }

    /// `EXT-X-CUE-OUT`.
    public var cueOut: CueOut? {
        get { box?.extras.cueOut ?? nil }
        _modify { yield &extras.cueOut }
    }

    /// `EXT-X-CUE-OUT-CONT`.
    public var cueOutContinuation: CueOutContinuation? {
        get { box?.extras.cueOutContinuation ?? nil }
        _modify { yield &extras.cueOutContinuation }
    }

    /// `EXT-X-CUE-IN`.
    public var isCueIn: Bool {
        get { box?.extras.isCueIn ?? false }
        _modify { yield &extras.isCueIn }
    }

    /// `EXT-OATCLS-SCTE35`: a base64 SCTE-35 message.
    public var oatclsSCTE35: String? {
        get { box?.extras.oatclsSCTE35 ?? nil }
        _modify { yield &extras.oatclsSCTE35 }
    }

    /// `EXT-X-PART` tags: the partial segments that make up this segment (low-latency HLS).
    public var parts: [PartialSegment] {
        get { box?.extras.parts ?? [] }
        _modify { yield &extras.parts }
    }

    /// Unknown tags placed here, in order.
    public var unknownTags: [UnknownTag] {
        get { box?.extras.unknownTags ?? [] }
        _modify { yield &extras.unknownTags }
    }

    private struct Extras: Sendable, Hashable {
        var keys: [EncryptionKey] = []
        var map: MediaInitializationSection?
        var dateRanges: [DateRange] = []
        var cueOut: CueOut?
        var cueOutContinuation: CueOutContinuation?
        var isCueIn = false
        var oatclsSCTE35: String?
        var parts: [PartialSegment] = []
        var unknownTags: [UnknownTag] = []
    }

    /// The rare tags, out of line and shared until written (copy on write). A property is read through the
    /// reference, without copying the other rare tags.
    private final class Box: @unchecked Sendable {
        // Sendable because a box is never written while shared: `extras`'s modify accessor replaces a box that is
        // not uniquely referenced before writing, so every other holder only ever reads unchanging data.
        var extras: Extras
        init(_ extras: Extras) { self.extras = extras }
    }

    private var box: Box?

    // Mutating makes the box unique first, so that the arrays inside grow in place (appending n date ranges before
    // one segment costs O(n), not O(n²)); a box left empty is dropped.
    private var extras: Extras {
        get { box?.extras ?? Extras() }
        _modify {
            if box == nil {
                box = Box(Extras())
            } else if !isKnownUniquelyReferenced(&box) {
                box = Box(box!.extras)
            }
            defer { if box!.extras == Extras() { box = nil } }
            yield &box!.extras
        }
    }

    public static func == (lhs: SegmentTags, rhs: SegmentTags) -> Bool {
        lhs.isDiscontinuity == rhs.isDiscontinuity && lhs.programDateTime == rhs.programDateTime
            && lhs.isGap == rhs.isGap && lhs.bitrate == rhs.bitrate
            && (lhs.box === rhs.box || lhs.extras == rhs.extras)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(isDiscontinuity)
        hasher.combine(programDateTime)
        hasher.combine(isGap)
        hasher.combine(bitrate)
        if let box { hasher.combine(box.extras) }
    }
}

extension SegmentTags: Codable {
    private enum CodingKeys: String, CodingKey {
        case isDiscontinuity, programDateTime, isGap, bitrate, keys, map, dateRanges, cueOut, cueOutContinuation
        case isCueIn, oatclsSCTE35, parts, unknownTags
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        isDiscontinuity = try container.decodeIfPresent(Bool.self, forKey: .isDiscontinuity) ?? false
        programDateTime = try container.decodeIfPresent(StreamDate.self, forKey: .programDateTime)
        isGap = try container.decodeIfPresent(Bool.self, forKey: .isGap) ?? false
        bitrate = try container.decodeIfPresent(Int.self, forKey: .bitrate)
        keys = try container.decodeIfPresent([EncryptionKey].self, forKey: .keys) ?? []
        map = try container.decodeIfPresent(MediaInitializationSection.self, forKey: .map)
        dateRanges = try container.decodeIfPresent([DateRange].self, forKey: .dateRanges) ?? []
        cueOut = try container.decodeIfPresent(CueOut.self, forKey: .cueOut)
        cueOutContinuation = try container.decodeIfPresent(CueOutContinuation.self, forKey: .cueOutContinuation)
        isCueIn = try container.decodeIfPresent(Bool.self, forKey: .isCueIn) ?? false
        oatclsSCTE35 = try container.decodeIfPresent(String.self, forKey: .oatclsSCTE35)
        parts = try container.decodeIfPresent([PartialSegment].self, forKey: .parts) ?? []
        unknownTags = try container.decodeIfPresent([UnknownTag].self, forKey: .unknownTags) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if isDiscontinuity { try container.encode(true, forKey: .isDiscontinuity) }
        try container.encodeIfPresent(programDateTime, forKey: .programDateTime)
        if isGap { try container.encode(true, forKey: .isGap) }
        try container.encodeIfPresent(bitrate, forKey: .bitrate)
        if !keys.isEmpty { try container.encode(keys, forKey: .keys) }
        try container.encodeIfPresent(map, forKey: .map)
        if !dateRanges.isEmpty { try container.encode(dateRanges, forKey: .dateRanges) }
        try container.encodeIfPresent(cueOut, forKey: .cueOut)
        try container.encodeIfPresent(cueOutContinuation, forKey: .cueOutContinuation)
        if isCueIn { try container.encode(true, forKey: .isCueIn) }
        try container.encodeIfPresent(oatclsSCTE35, forKey: .oatclsSCTE35)
        if !parts.isEmpty { try container.encode(parts, forKey: .parts) }
        if !unknownTags.isEmpty { try container.encode(unknownTags, forKey: .unknownTags) }
    }
}

/// A media segment.
@dynamicMemberLookup
public struct Segment: Sendable, Hashable, Codable {
    /// The segment's URI, as written (relative URIs are resolved by the client).
    ///
    /// Kept as bytes shared with the other segments of the parse (see `SegmentURI`): reading it makes a `String`.
    public var uri: String {
        get { uriText.string }
        set { uriText = SegmentURI(newValue) }
    }
    /// The URI's bytes.
    var uriText: SegmentURI
    /// The `EXTINF` duration, in seconds.
    public var duration: Double
    /// The `EXTINF` title.
    public var title: String
    /// `EXT-X-BYTERANGE`, as written.
    public var byteRange: ByteRange?
    /// The tags before the URI.
    public var tags: SegmentTags
    /// The media sequence number (computed).
    public internal(set) var mediaSequence: Int = 0
    /// The discontinuity sequence number (computed).
    public internal(set) var discontinuitySequence: Int = 0
    /// The start time on the playlist's timeline, from its first segment (computed).
    public internal(set) var startTime: MediaTime = .zero
    /// The byte range with its offset resolved (computed).
    public internal(set) var resolvedByteRange: ByteRange? {
        get { byteRange.map { ByteRange(length: $0.length, offset: resolvedOffset) } }
        set { resolvedOffset = newValue?.offset ?? 0 }
    }
    /// The offset of ``byteRange`` as ``MediaPlaylist/renumber()`` resolved it: the resolved range is kept as this
    /// one number, not a second optional range (a segment stays 136 bytes, not 160, over 100,000 segments).
    private var resolvedOffset = 0

    public init(uri: String, duration: Double, title: String = "", byteRange: ByteRange? = nil,
                tags: SegmentTags = SegmentTags()) {
        self.init(uriText: SegmentURI(uri), duration: duration, title: title, byteRange: byteRange, tags: tags)
    }

    init(uriText: SegmentURI, duration: Double, title: String, byteRange: ByteRange?, tags: SegmentTags) {
        self.uriText = uriText
        self.duration = duration
        self.title = title
        self.byteRange = byteRange
        self.tags = tags
    }

    private enum CodingKeys: String, CodingKey {
        case uriText = "uri", duration, title, byteRange, tags, mediaSequence, discontinuitySequence, startTime
        case resolvedByteRange
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            uriText: try container.decode(SegmentURI.self, forKey: .uriText),
            duration: try container.decode(Double.self, forKey: .duration),
            title: try container.decode(String.self, forKey: .title),
            byteRange: try container.decodeIfPresent(ByteRange.self, forKey: .byteRange),
            tags: try container.decode(SegmentTags.self, forKey: .tags))
        mediaSequence = try container.decode(Int.self, forKey: .mediaSequence)
        discontinuitySequence = try container.decode(Int.self, forKey: .discontinuitySequence)
        startTime = try container.decode(MediaTime.self, forKey: .startTime)
        resolvedByteRange = try container.decodeIfPresent(ByteRange.self, forKey: .resolvedByteRange)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(uriText, forKey: .uriText)
        try container.encode(duration, forKey: .duration)
        try container.encode(title, forKey: .title)
        try container.encodeIfPresent(byteRange, forKey: .byteRange)
        try container.encode(tags, forKey: .tags)
        try container.encode(mediaSequence, forKey: .mediaSequence)
        try container.encode(discontinuitySequence, forKey: .discontinuitySequence)
        try container.encode(startTime, forKey: .startTime)
        try container.encodeIfPresent(resolvedByteRange, forKey: .resolvedByteRange)
    }

    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<SegmentTags, Value>) -> Value {
        get { tags[keyPath: keyPath] }
        set { tags[keyPath: keyPath] = newValue }
    }

    /// The segment's range on the playlist's timeline.
    public var timeRange: MediaTimeRange {
        MediaTimeRange(start: startTime, duration: MediaTime(seconds: duration))
    }
}

/// `EXT-X-PART`: a partial segment.
public struct PartialSegment: Sendable, Hashable, Codable {
    public var uri: String
    public var duration: Double
    /// `INDEPENDENT=YES`.
    public var isIndependent: Bool
    /// `BYTERANGE`.
    public var byteRange: ByteRange?
    /// `GAP=YES`.
    public var isGap: Bool

    public init(uri: String, duration: Double, isIndependent: Bool = false, byteRange: ByteRange? = nil,
                isGap: Bool = false) {
        self.uri = uri
        self.duration = duration
        self.isIndependent = isIndependent
        self.byteRange = byteRange
        self.isGap = isGap
    }
}

/// `EXT-X-PART-INF`.
public struct PartInformation: Sendable, Hashable, Codable {
    /// `PART-TARGET`, in seconds.
    public var partTarget: Double
    public init(partTarget: Double) { self.partTarget = partTarget }
}

/// `EXT-X-SERVER-CONTROL`.
public struct ServerControl: Sendable, Hashable, Codable {
    /// `CAN-SKIP-UNTIL`, in seconds.
    public var canSkipUntil: Double?
    /// `CAN-SKIP-DATERANGES=YES`.
    public var canSkipDateRanges: Bool
    /// `HOLD-BACK`, in seconds.
    public var holdBack: Double?
    /// `PART-HOLD-BACK`, in seconds.
    public var partHoldBack: Double?
    /// `CAN-BLOCK-RELOAD=YES`.
    public var canBlockReload: Bool

    public init(canSkipUntil: Double? = nil, canSkipDateRanges: Bool = false, holdBack: Double? = nil,
                partHoldBack: Double? = nil, canBlockReload: Bool = false) {
        self.canSkipUntil = canSkipUntil
        self.canSkipDateRanges = canSkipDateRanges
        self.holdBack = holdBack
        self.partHoldBack = partHoldBack
        self.canBlockReload = canBlockReload
    }
}

/// `EXT-X-SKIP`: how many segments a delta update left out.
public struct SkipInformation: Sendable, Hashable, Codable {
    /// `SKIPPED-SEGMENTS`.
    public var skippedSegments: Int
    /// `RECENTLY-REMOVED-DATERANGES`, split on tabs.
    public var recentlyRemovedDateRanges: [String]

    public init(skippedSegments: Int, recentlyRemovedDateRanges: [String] = []) {
        self.skippedSegments = skippedSegments
        self.recentlyRemovedDateRanges = recentlyRemovedDateRanges
    }
}

/// `EXT-X-PRELOAD-HINT`.
public struct PreloadHint: Sendable, Hashable, Codable {
    /// `TYPE`: `PART` or `MAP`.
    public var type: String
    public var uri: String
    /// `BYTERANGE-START`.
    public var byteRangeStart: Int?
    /// `BYTERANGE-LENGTH`.
    public var byteRangeLength: Int?

    public init(type: String, uri: String, byteRangeStart: Int? = nil, byteRangeLength: Int? = nil) {
        self.type = type
        self.uri = uri
        self.byteRangeStart = byteRangeStart
        self.byteRangeLength = byteRangeLength
    }
}

/// `EXT-X-RENDITION-REPORT`.
public struct RenditionReport: Sendable, Hashable, Codable {
    public var uri: String
    /// `LAST-MSN`.
    public var lastMediaSequence: Int?
    /// `LAST-PART`.
    public var lastPart: Int?

    public init(uri: String, lastMediaSequence: Int? = nil, lastPart: Int? = nil) {
        self.uri = uri
        self.lastMediaSequence = lastMediaSequence
        self.lastPart = lastPart
    }
}
