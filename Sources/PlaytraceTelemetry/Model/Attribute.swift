import Synchronization

/// A named property of an event: standard ones (OpenAVT's 46, the time-since attribute of each standard action,
/// and Playtrace's dimensions) and custom ones, created by name.
///
/// An attribute is its identifier: a small number assigned when it is created (standard ones have fixed ones), which
/// keeps events cheap to build, copy and search (copying an attribute counts no reference). Its name comes from a
/// table (standard attributes) or from the registry that assigned the identifier (custom ones). Two attributes created
/// with the same name are the same attribute.
///
/// ```swift
/// let rating = Attribute(name: "contentRating")   // by convention, lower camel case
/// event[rating] = "PG"
/// ```
public struct Attribute: Sendable, Hashable, CustomStringConvertible {
    /// Identifies the attribute within the process.
    public let id: UInt32

    /// The attribute with this name (a standard one when the name is standard).
    public init(name: String) {
        id = AttributeRegistry.shared.id(for: name)
    }

    init(standard id: UInt32) {
        self.id = id
    }

    /// The name backends write.
    public var name: String {
        if let slot = Attribute.standardSlot(of: id), let name = AttributeRegistry.standardNames[slot] { return name }
        return AttributeRegistry.shared.name(of: id)
    }

    /// Where a standard attribute sits in a table of 128: identifiers 0–63, then the standard actions' time-since
    /// attributes (100–163) at 64–127; `nil` for custom attributes. Hot paths index or mask by it instead of hashing.
    @inlinable
    public static func standardSlot(of id: UInt32) -> Int? {
        if id < 64 { return Int(id) }
        if id >= 100, id < 164 { return Int(id - 36) }
        return nil
    }

    public var description: String { name }
}

/// Assigns identifiers to attribute names: the standard ones first, in a fixed order, then custom ones as they
/// are created; keeps the names of custom attributes and of custom actions.
final class AttributeRegistry: Sendable {
    static let shared = AttributeRegistry()

    /// Custom attributes get identifiers from here up.
    static let firstCustomID: UInt32 = 10_000

    /// The standard attributes' names by ``Attribute/standardSlot(of:)`` (literals: copying one counts no
    /// reference).
    static let standardNames: [String?] = {
        var names = [String?](repeating: nil, count: 128)
        for (id, name) in attributeNames.enumerated() { names[id] = name }
        for (index, action) in Action.standardNames.enumerated() {
            names[Attribute.standardSlot(of: Action.firstTimeAttributeID + UInt32(index))!] = action.timeSince
        }
        return names
    }()

    /// The names of the standard attributes 0–54, by identifier (``Attribute/ID``).
    private static let attributeNames: [String] = [
        "trackerTarget", "streamId", "playbackId", "senderId", "countErrors", "countStarts",
        "countAds", "accumPauseTime", "accumBufferTime", "accumSeekTime", "accumPlayTime", "deltaPlayTime",
        "inPauseBlock", "inSeekBlock", "inBufferBlock", "inPlaybackBlock", "inAdBreakBlock", "inAdBlock",
        "errorDescription", "position", "duration", "resolutionHeight", "resolutionWidth", "isMuted",
        "volume", "fps", "source", "bitrate", "language", "subtitles",
        "title", "isAdsTracker", "adPosition", "adDuration", "adBufferedTime", "adVolume",
        "adRoll", "adDescription", "adId", "adTitle", "adAdvertiserName", "adCreativeId",
        "adBitrate", "adResolutionHeight", "adResolutionWidth", "adSystem", "sessionId", "contentId",
        "engine", "platform", "variant", "bufferType", "endReason", "isFatal",
        "failureStage",
    ]

    private struct State {
        var ids: [String: UInt32]
        var customNames: [String] = []
        /// Custom actions' names, by their time-since attribute.
        var actionNames: [UInt32: String] = [:]
    }

    private let state: Mutex<State>

    private init() {
        var ids: [String: UInt32] = [:]
        for (slot, name) in Self.standardNames.enumerated() {
            guard let name else { continue }
            ids[name] = slot < 64 ? UInt32(slot) : UInt32(slot) + 36
        }
        state = Mutex(State(ids: ids))
    }

    func id(for name: String) -> UInt32 {
        state.withLock { state in
            if let id = state.ids[name] { return id }
            let id = Self.firstCustomID + UInt32(state.customNames.count)
            state.customNames.append(name)
            state.ids[name] = id
            return id
        }
    }

    /// The name of a custom attribute (an identifier this registry assigned).
    func name(of id: UInt32) -> String {
        state.withLock { state in
            let index = Int(id) - Int(Self.firstCustomID)
            return state.customNames.indices.contains(index) ? state.customNames[index] : "attribute\(id)"
        }
    }

    /// Remembers a custom action's name (the first one given for its time-since attribute).
    func registerAction(_ name: String, timeAttribute: UInt32) {
        state.withLock { state in
            if state.actionNames[timeAttribute] == nil { state.actionNames[timeAttribute] = name }
        }
    }

    /// A custom action's name, by its time-since attribute.
    func actionName(timeAttribute: UInt32) -> String? {
        state.withLock { $0.actionNames[timeAttribute] }
    }
}

public extension Attribute {
    /// The identifiers of the standard attributes as constants, for switches and masks on hot paths
    /// (`Attribute.ID.playbackId == Attribute.playbackId.id`).
    enum ID {
        public static let trackerTarget: UInt32 = 0
        public static let streamId: UInt32 = 1
        public static let playbackId: UInt32 = 2
        public static let senderId: UInt32 = 3
        public static let countErrors: UInt32 = 4
        public static let countStarts: UInt32 = 5
        public static let countAds: UInt32 = 6
        public static let accumPauseTime: UInt32 = 7
        public static let accumBufferTime: UInt32 = 8
        public static let accumSeekTime: UInt32 = 9
        public static let accumPlayTime: UInt32 = 10
        public static let deltaPlayTime: UInt32 = 11
        public static let inPauseBlock: UInt32 = 12
        public static let inSeekBlock: UInt32 = 13
        public static let inBufferBlock: UInt32 = 14
        public static let inPlaybackBlock: UInt32 = 15
        public static let inAdBreakBlock: UInt32 = 16
        public static let inAdBlock: UInt32 = 17
        public static let errorDescription: UInt32 = 18
        public static let position: UInt32 = 19
        public static let duration: UInt32 = 20
        public static let resolutionHeight: UInt32 = 21
        public static let resolutionWidth: UInt32 = 22
        public static let isMuted: UInt32 = 23
        public static let volume: UInt32 = 24
        public static let fps: UInt32 = 25
        public static let source: UInt32 = 26
        public static let bitrate: UInt32 = 27
        public static let language: UInt32 = 28
        public static let subtitles: UInt32 = 29
        public static let title: UInt32 = 30
        public static let isAdsTracker: UInt32 = 31
        public static let adPosition: UInt32 = 32
        public static let adDuration: UInt32 = 33
        public static let adBufferedTime: UInt32 = 34
        public static let adVolume: UInt32 = 35
        public static let adRoll: UInt32 = 36
        public static let adDescription: UInt32 = 37
        public static let adId: UInt32 = 38
        public static let adTitle: UInt32 = 39
        public static let adAdvertiserName: UInt32 = 40
        public static let adCreativeId: UInt32 = 41
        public static let adBitrate: UInt32 = 42
        public static let adResolutionHeight: UInt32 = 43
        public static let adResolutionWidth: UInt32 = 44
        public static let adSystem: UInt32 = 45
        public static let sessionId: UInt32 = 46
        public static let contentId: UInt32 = 47
        public static let engine: UInt32 = 48
        public static let platform: UInt32 = 49
        public static let variant: UInt32 = 50
        public static let bufferType: UInt32 = 51
        public static let endReason: UInt32 = 52
        public static let isFatal: UInt32 = 53
        public static let failureStage: UInt32 = 54
    }

    // Identity.
    /// What the tracker observes (a player, an ad library).
    static let trackerTarget = Attribute(standard: ID.trackerTarget)
    /// Identifies the stream being played.
    static let streamId = Attribute(standard: ID.streamId)
    /// Identifies one playback (renewed with each).
    static let playbackId = Attribute(standard: ID.playbackId)
    /// The tracker that sent the event.
    static let senderId = Attribute(standard: ID.senderId)

    // Counters (per playback).
    static let countErrors = Attribute(standard: ID.countErrors)
    static let countStarts = Attribute(standard: ID.countStarts)
    static let countAds = Attribute(standard: ID.countAds)

    // Accumulated times, milliseconds (per playback).
    static let accumPauseTime = Attribute(standard: ID.accumPauseTime)
    static let accumBufferTime = Attribute(standard: ID.accumBufferTime)
    static let accumSeekTime = Attribute(standard: ID.accumSeekTime)
    static let accumPlayTime = Attribute(standard: ID.accumPlayTime)
    /// Content play time since the previous event, milliseconds.
    static let deltaPlayTime = Attribute(standard: ID.deltaPlayTime)

    // Block flags.
    static let inPauseBlock = Attribute(standard: ID.inPauseBlock)
    static let inSeekBlock = Attribute(standard: ID.inSeekBlock)
    static let inBufferBlock = Attribute(standard: ID.inBufferBlock)
    static let inPlaybackBlock = Attribute(standard: ID.inPlaybackBlock)
    static let inAdBreakBlock = Attribute(standard: ID.inAdBreakBlock)
    static let inAdBlock = Attribute(standard: ID.inAdBlock)

    static let errorDescription = Attribute(standard: ID.errorDescription)

    // Stream.
    /// Playhead, milliseconds.
    static let position = Attribute(standard: ID.position)
    /// Duration, milliseconds.
    static let duration = Attribute(standard: ID.duration)
    static let resolutionHeight = Attribute(standard: ID.resolutionHeight)
    static let resolutionWidth = Attribute(standard: ID.resolutionWidth)
    static let isMuted = Attribute(standard: ID.isMuted)
    /// Volume, 0–100.
    static let volume = Attribute(standard: ID.volume)
    static let fps = Attribute(standard: ID.fps)
    static let source = Attribute(standard: ID.source)
    /// Bit rate, bits per second.
    static let bitrate = Attribute(standard: ID.bitrate)
    static let language = Attribute(standard: ID.language)
    static let subtitles = Attribute(standard: ID.subtitles)
    static let title = Attribute(standard: ID.title)

    // Ads.
    static let isAdsTracker = Attribute(standard: ID.isAdsTracker)
    static let adPosition = Attribute(standard: ID.adPosition)
    static let adDuration = Attribute(standard: ID.adDuration)
    static let adBufferedTime = Attribute(standard: ID.adBufferedTime)
    static let adVolume = Attribute(standard: ID.adVolume)
    /// pre, mid or post.
    static let adRoll = Attribute(standard: ID.adRoll)
    static let adDescription = Attribute(standard: ID.adDescription)
    static let adId = Attribute(standard: ID.adId)
    static let adTitle = Attribute(standard: ID.adTitle)
    static let adAdvertiserName = Attribute(standard: ID.adAdvertiserName)
    static let adCreativeId = Attribute(standard: ID.adCreativeId)
    static let adBitrate = Attribute(standard: ID.adBitrate)
    static let adResolutionHeight = Attribute(standard: ID.adResolutionHeight)
    static let adResolutionWidth = Attribute(standard: ID.adResolutionWidth)
    static let adSystem = Attribute(standard: ID.adSystem)

    // Playtrace's dimensions (beyond OpenAVT's 46), which metrics carry so that a time-series database can group
    // by them.
    /// Identifies the viewing session (one player, several playbacks).
    static let sessionId = Attribute(standard: ID.sessionId)
    /// Identifies the content (a URN, a media id).
    static let contentId = Attribute(standard: ID.contentId)
    /// The engine that plays (headless, mpv, avfoundation).
    static let engine = Attribute(standard: ID.engine)
    /// The platform (linux, ios, macos…).
    static let platform = Attribute(standard: ID.platform)
    /// The variant under the playhead (its index in the multivariant playlist).
    static let variant = Attribute(standard: ID.variant)

    /// What kind of buffering a BufferBegin/BufferFinish is: `initial` (before Start, part of startup), `rebuffer`
    /// (playback ran dry), or `inBlock` (inside a pause or a seek: not a rebuffer).
    static let bufferType = Attribute(standard: ID.bufferType)
    /// Why a playback ended: `end` (played to its end), `stop`, `next`, `abandoned` (stopped before it started),
    /// `error`.
    static let endReason = Attribute(standard: ID.endReason)

    /// Whether an Error stopped playback (`true`) or playback went on (`false`).
    static let isFatal = Attribute(standard: ID.isFatal)
    /// On a PlaybackFailure metric: `start` (no first frame) or `playback` (after it).
    static let failureStage = Attribute(standard: ID.failureStage)

    /// OpenAVT's 46 standard attributes.
    static let openAVT: [Attribute] = [
        .trackerTarget, .streamId, .playbackId, .senderId, .countErrors, .countStarts, .countAds, .accumPauseTime,
        .accumBufferTime, .accumSeekTime, .accumPlayTime, .deltaPlayTime, .inPauseBlock, .inSeekBlock,
        .inBufferBlock, .inPlaybackBlock, .inAdBreakBlock, .inAdBlock, .errorDescription, .position, .duration,
        .resolutionHeight, .resolutionWidth, .isMuted, .volume, .fps, .source, .bitrate, .language, .subtitles,
        .title, .isAdsTracker, .adPosition, .adDuration, .adBufferedTime, .adVolume, .adRoll, .adDescription, .adId,
        .adTitle, .adAdvertiserName, .adCreativeId, .adBitrate, .adResolutionHeight, .adResolutionWidth, .adSystem,
    ]

    /// Playtrace's dimension attributes.
    static let dimensions: [Attribute] = [.sessionId, .playbackId, .streamId, .contentId, .variant, .engine, .platform]

    /// Every standard attribute: OpenAVT's, Playtrace's own and the standard actions' time-since ones.
    static var allStandard: [Attribute] { standard }

    internal static let standard: [Attribute] = openAVT
        + [.sessionId, .contentId, .engine, .platform, .variant, .bufferType, .endReason, .isFatal, .failureStage]
        + Action.standard.map(\.timeAttribute)
}
