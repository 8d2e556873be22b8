import Synchronization

/// A named property of an event: standard ones (OpenAVT's 46, the time-since attribute of each standard action,
/// and Playtrace's dimensions) and custom ones, created by name.
///
/// Attributes compare by a small identifier assigned when they are created (standard ones have fixed ones), which
/// keeps events cheap to build and search. Two attributes created with the same name are the same attribute.
///
/// ```swift
/// let rating = Attribute(name: "contentRating")   // by convention, lower camel case
/// event[rating] = "PG"
/// ```
public struct Attribute: Sendable, Hashable, CustomStringConvertible {
    /// The name backends write.
    public let name: String
    /// Identifies the attribute within the process.
    public let id: UInt32

    /// The attribute with this name (a standard one when the name is standard).
    public init(name: String) {
        self.name = name
        id = AttributeRegistry.shared.id(for: name)
    }

    init(standard id: UInt32, _ name: String) {
        self.name = name
        self.id = id
    }

    /// Where a standard attribute sits in a table of 128: identifiers 0–63, then the standard actions' time-since
    /// attributes (100–163) at 64–127; `nil` for custom attributes. Hot paths index or mask by it instead of hashing.
    @inlinable
    public static func standardSlot(of id: UInt32) -> Int? {
        if id < 64 { return Int(id) }
        if id >= 100, id < 164 { return Int(id - 36) }
        return nil
    }

    public static func == (lhs: Attribute, rhs: Attribute) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
    public var description: String { name }
}

/// Assigns identifiers to attribute names: the standard ones first, in a fixed order, then custom ones as they
/// are created.
final class AttributeRegistry: Sendable {
    static let shared = AttributeRegistry()

    /// Custom attributes get identifiers from here up.
    static let firstCustomID: UInt32 = 10_000

    private struct State {
        var ids: [String: UInt32]
        var next = AttributeRegistry.firstCustomID
    }

    private let state: Mutex<State>

    private init() {
        var ids: [String: UInt32] = [:]
        for attribute in Attribute.standard { ids[attribute.name] = attribute.id }
        state = Mutex(State(ids: ids))
    }

    func id(for name: String) -> UInt32 {
        state.withLock { state in
            if let id = state.ids[name] { return id }
            let id = state.next
            state.next += 1
            state.ids[name] = id
            return id
        }
    }
}

public extension Attribute {
    // Identity.
    /// What the tracker observes (a player, an ad library).
    static let trackerTarget = Attribute(standard: 0, "trackerTarget")
    /// Identifies the stream being played.
    static let streamId = Attribute(standard: 1, "streamId")
    /// Identifies one playback (renewed with each).
    static let playbackId = Attribute(standard: 2, "playbackId")
    /// The tracker that sent the event.
    static let senderId = Attribute(standard: 3, "senderId")

    // Counters (per playback).
    static let countErrors = Attribute(standard: 4, "countErrors")
    static let countStarts = Attribute(standard: 5, "countStarts")
    static let countAds = Attribute(standard: 6, "countAds")

    // Accumulated times, milliseconds (per playback).
    static let accumPauseTime = Attribute(standard: 7, "accumPauseTime")
    static let accumBufferTime = Attribute(standard: 8, "accumBufferTime")
    static let accumSeekTime = Attribute(standard: 9, "accumSeekTime")
    static let accumPlayTime = Attribute(standard: 10, "accumPlayTime")
    /// Content play time since the previous event, milliseconds.
    static let deltaPlayTime = Attribute(standard: 11, "deltaPlayTime")

    // Block flags.
    static let inPauseBlock = Attribute(standard: 12, "inPauseBlock")
    static let inSeekBlock = Attribute(standard: 13, "inSeekBlock")
    static let inBufferBlock = Attribute(standard: 14, "inBufferBlock")
    static let inPlaybackBlock = Attribute(standard: 15, "inPlaybackBlock")
    static let inAdBreakBlock = Attribute(standard: 16, "inAdBreakBlock")
    static let inAdBlock = Attribute(standard: 17, "inAdBlock")

    static let errorDescription = Attribute(standard: 18, "errorDescription")

    // Stream.
    /// Playhead, milliseconds.
    static let position = Attribute(standard: 19, "position")
    /// Duration, milliseconds.
    static let duration = Attribute(standard: 20, "duration")
    static let resolutionHeight = Attribute(standard: 21, "resolutionHeight")
    static let resolutionWidth = Attribute(standard: 22, "resolutionWidth")
    static let isMuted = Attribute(standard: 23, "isMuted")
    /// Volume, 0–100.
    static let volume = Attribute(standard: 24, "volume")
    static let fps = Attribute(standard: 25, "fps")
    static let source = Attribute(standard: 26, "source")
    /// Bit rate, bits per second.
    static let bitrate = Attribute(standard: 27, "bitrate")
    static let language = Attribute(standard: 28, "language")
    static let subtitles = Attribute(standard: 29, "subtitles")
    static let title = Attribute(standard: 30, "title")

    // Ads.
    static let isAdsTracker = Attribute(standard: 31, "isAdsTracker")
    static let adPosition = Attribute(standard: 32, "adPosition")
    static let adDuration = Attribute(standard: 33, "adDuration")
    static let adBufferedTime = Attribute(standard: 34, "adBufferedTime")
    static let adVolume = Attribute(standard: 35, "adVolume")
    /// pre, mid or post.
    static let adRoll = Attribute(standard: 36, "adRoll")
    static let adDescription = Attribute(standard: 37, "adDescription")
    static let adId = Attribute(standard: 38, "adId")
    static let adTitle = Attribute(standard: 39, "adTitle")
    static let adAdvertiserName = Attribute(standard: 40, "adAdvertiserName")
    static let adCreativeId = Attribute(standard: 41, "adCreativeId")
    static let adBitrate = Attribute(standard: 42, "adBitrate")
    static let adResolutionHeight = Attribute(standard: 43, "adResolutionHeight")
    static let adResolutionWidth = Attribute(standard: 44, "adResolutionWidth")
    static let adSystem = Attribute(standard: 45, "adSystem")

    // Playtrace's dimensions (beyond OpenAVT's 46), which metrics carry so that a time-series database can group
    // by them.
    /// Identifies the viewing session (one player, several playbacks).
    static let sessionId = Attribute(standard: 46, "sessionId")
    /// Identifies the content (a URN, a media id).
    static let contentId = Attribute(standard: 47, "contentId")
    /// The engine that plays (headless, mpv, avfoundation).
    static let engine = Attribute(standard: 48, "engine")
    /// The platform (linux, ios, macos…).
    static let platform = Attribute(standard: 49, "platform")
    /// The variant under the playhead (its index in the multivariant playlist).
    static let variant = Attribute(standard: 50, "variant")

    /// What kind of buffering a BufferBegin/BufferFinish is: `initial` (before Start, part of startup), `rebuffer`
    /// (playback ran dry), or `inBlock` (inside a pause or a seek: not a rebuffer).
    static let bufferType = Attribute(standard: 51, "bufferType")
    /// Why a playback ended: `end` (played to its end), `stop`, `next`, `abandoned` (stopped before it started),
    /// `error`.
    static let endReason = Attribute(standard: 52, "endReason")

    /// Whether an Error stopped playback (`true`) or playback went on (`false`).
    static let isFatal = Attribute(standard: 53, "isFatal")
    /// On a PlaybackFailure metric: `start` (no first frame) or `playback` (after it).
    static let failureStage = Attribute(standard: 54, "failureStage")

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
