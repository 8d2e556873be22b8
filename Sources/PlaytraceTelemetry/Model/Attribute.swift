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

    /// A standard attribute. (The constants below are made on the spot from their identifiers: reading one costs
    /// no lazy initialization.)
    @usableFromInline
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
    @inlinable static var trackerTarget: Attribute { Attribute(standard: ID.trackerTarget) }
    /// Identifies the stream being played.
    @inlinable static var streamId: Attribute { Attribute(standard: ID.streamId) }
    /// Identifies one playback (renewed with each).
    @inlinable static var playbackId: Attribute { Attribute(standard: ID.playbackId) }
    /// The tracker that sent the event.
    @inlinable static var senderId: Attribute { Attribute(standard: ID.senderId) }

    // Counters (per playback).
    @inlinable static var countErrors: Attribute { Attribute(standard: ID.countErrors) }
    @inlinable static var countStarts: Attribute { Attribute(standard: ID.countStarts) }
    @inlinable static var countAds: Attribute { Attribute(standard: ID.countAds) }

    // Accumulated times, milliseconds (per playback).
    @inlinable static var accumPauseTime: Attribute { Attribute(standard: ID.accumPauseTime) }
    @inlinable static var accumBufferTime: Attribute { Attribute(standard: ID.accumBufferTime) }
    @inlinable static var accumSeekTime: Attribute { Attribute(standard: ID.accumSeekTime) }
    @inlinable static var accumPlayTime: Attribute { Attribute(standard: ID.accumPlayTime) }
    /// Content play time since the previous event, milliseconds.
    @inlinable static var deltaPlayTime: Attribute { Attribute(standard: ID.deltaPlayTime) }

    // Block flags.
    @inlinable static var inPauseBlock: Attribute { Attribute(standard: ID.inPauseBlock) }
    @inlinable static var inSeekBlock: Attribute { Attribute(standard: ID.inSeekBlock) }
    @inlinable static var inBufferBlock: Attribute { Attribute(standard: ID.inBufferBlock) }
    @inlinable static var inPlaybackBlock: Attribute { Attribute(standard: ID.inPlaybackBlock) }
    @inlinable static var inAdBreakBlock: Attribute { Attribute(standard: ID.inAdBreakBlock) }
    @inlinable static var inAdBlock: Attribute { Attribute(standard: ID.inAdBlock) }

    @inlinable static var errorDescription: Attribute { Attribute(standard: ID.errorDescription) }

    // Stream.
    /// Playhead, milliseconds.
    @inlinable static var position: Attribute { Attribute(standard: ID.position) }
    /// Duration, milliseconds.
    @inlinable static var duration: Attribute { Attribute(standard: ID.duration) }
    @inlinable static var resolutionHeight: Attribute { Attribute(standard: ID.resolutionHeight) }
    @inlinable static var resolutionWidth: Attribute { Attribute(standard: ID.resolutionWidth) }
    @inlinable static var isMuted: Attribute { Attribute(standard: ID.isMuted) }
    /// Volume, 0–100.
    @inlinable static var volume: Attribute { Attribute(standard: ID.volume) }
    @inlinable static var fps: Attribute { Attribute(standard: ID.fps) }
    @inlinable static var source: Attribute { Attribute(standard: ID.source) }
    /// Bit rate, bits per second.
    @inlinable static var bitrate: Attribute { Attribute(standard: ID.bitrate) }
    @inlinable static var language: Attribute { Attribute(standard: ID.language) }
    @inlinable static var subtitles: Attribute { Attribute(standard: ID.subtitles) }
    @inlinable static var title: Attribute { Attribute(standard: ID.title) }

    // Ads.
    @inlinable static var isAdsTracker: Attribute { Attribute(standard: ID.isAdsTracker) }
    @inlinable static var adPosition: Attribute { Attribute(standard: ID.adPosition) }
    @inlinable static var adDuration: Attribute { Attribute(standard: ID.adDuration) }
    @inlinable static var adBufferedTime: Attribute { Attribute(standard: ID.adBufferedTime) }
    @inlinable static var adVolume: Attribute { Attribute(standard: ID.adVolume) }
    /// pre, mid or post.
    @inlinable static var adRoll: Attribute { Attribute(standard: ID.adRoll) }
    @inlinable static var adDescription: Attribute { Attribute(standard: ID.adDescription) }
    @inlinable static var adId: Attribute { Attribute(standard: ID.adId) }
    @inlinable static var adTitle: Attribute { Attribute(standard: ID.adTitle) }
    @inlinable static var adAdvertiserName: Attribute { Attribute(standard: ID.adAdvertiserName) }
    @inlinable static var adCreativeId: Attribute { Attribute(standard: ID.adCreativeId) }
    @inlinable static var adBitrate: Attribute { Attribute(standard: ID.adBitrate) }
    @inlinable static var adResolutionHeight: Attribute { Attribute(standard: ID.adResolutionHeight) }
    @inlinable static var adResolutionWidth: Attribute { Attribute(standard: ID.adResolutionWidth) }
    @inlinable static var adSystem: Attribute { Attribute(standard: ID.adSystem) }

    // Playtrace's dimensions (beyond OpenAVT's 46), which metrics carry so that a time-series database can group
    // by them.
    /// Identifies the viewing session (one player, several playbacks).
    @inlinable static var sessionId: Attribute { Attribute(standard: ID.sessionId) }
    /// Identifies the content (a URN, a media id).
    @inlinable static var contentId: Attribute { Attribute(standard: ID.contentId) }
    /// The engine that plays (headless, mpv, avfoundation).
    @inlinable static var engine: Attribute { Attribute(standard: ID.engine) }
    /// The platform (linux, ios, macos…).
    @inlinable static var platform: Attribute { Attribute(standard: ID.platform) }
    /// The variant under the playhead (its index in the multivariant playlist).
    @inlinable static var variant: Attribute { Attribute(standard: ID.variant) }

    /// What kind of buffering a BufferBegin/BufferFinish is: `initial` (before Start, part of startup), `rebuffer`
    /// (playback ran dry), or `inBlock` (inside a pause or a seek: not a rebuffer).
    @inlinable static var bufferType: Attribute { Attribute(standard: ID.bufferType) }
    /// Why a playback ended: `end` (played to its end), `stop`, `next`, `abandoned` (stopped before it started),
    /// `error`.
    @inlinable static var endReason: Attribute { Attribute(standard: ID.endReason) }

    /// Whether an Error stopped playback (`true`) or playback went on (`false`).
    @inlinable static var isFatal: Attribute { Attribute(standard: ID.isFatal) }
    /// On a PlaybackFailure metric: `start` (no first frame) or `playback` (after it).
    @inlinable static var failureStage: Attribute { Attribute(standard: ID.failureStage) }

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
