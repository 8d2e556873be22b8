/// What an event reports: OpenAVT's 39 standard actions, or a custom one created by name. Every action has a
/// time-since attribute (`timeSince<Action>`, milliseconds since the previous event of that action in the same
/// playback).
///
/// ```swift
/// let skipIntro = Action(name: "SkipIntro")   // by convention, upper camel case; attribute timeSinceSkipIntro
/// instrument.emit(skipIntro, tracker: trackerID)
/// ```
public struct Action: Sendable, Hashable, CustomStringConvertible {
    /// The name backends write.
    public let name: String
    /// The attribute that holds the time since the previous event of this action.
    public let timeAttribute: Attribute

    /// A custom action; its time-since attribute is `timeSince<name>` unless given.
    public init(name: String, timeAttribute: Attribute? = nil) {
        self.name = name
        self.timeAttribute = timeAttribute ?? Attribute(name: "timeSince" + name)
    }

    /// A standard action. Its names are given as literals, which events copy without counting references (a name
    /// made by concatenation would be counted on every copy of every event).
    private init(standard index: UInt32, _ name: String, _ timeName: String) {
        self.name = name
        timeAttribute = Attribute(standard: Action.firstTimeAttributeID + index, timeName)
    }

    static let firstTimeAttributeID: UInt32 = 100

    public static func == (lhs: Action, rhs: Action) -> Bool { lhs.timeAttribute == rhs.timeAttribute }
    public func hash(into hasher: inout Hasher) { hasher.combine(timeAttribute) }
    public var description: String { name }

    // Set-up.
    public static let trackerInit = Action(standard: 0, "TrackerInit", "timeSinceTrackerInit")
    public static let mediaRequest = Action(standard: 1, "MediaRequest", "timeSinceMediaRequest")
    public static let playerSet = Action(standard: 2, "PlayerSet", "timeSincePlayerSet")
    public static let playerReady = Action(standard: 3, "PlayerReady", "timeSincePlayerReady")
    public static let prepareItem = Action(standard: 4, "PrepareItem", "timeSincePrepareItem")
    public static let manifestLoad = Action(standard: 5, "ManifestLoad", "timeSinceManifestLoad")
    public static let streamLoad = Action(standard: 6, "StreamLoad", "timeSinceStreamLoad")
    // Playback.
    public static let start = Action(standard: 7, "Start", "timeSinceStart")
    public static let bufferBegin = Action(standard: 8, "BufferBegin", "timeSinceBufferBegin")
    public static let bufferFinish = Action(standard: 9, "BufferFinish", "timeSinceBufferFinish")
    public static let seekBegin = Action(standard: 10, "SeekBegin", "timeSinceSeekBegin")
    public static let seekFinish = Action(standard: 11, "SeekFinish", "timeSinceSeekFinish")
    public static let pauseBegin = Action(standard: 12, "PauseBegin", "timeSincePauseBegin")
    public static let pauseFinish = Action(standard: 13, "PauseFinish", "timeSincePauseFinish")
    public static let forwardBegin = Action(standard: 14, "ForwardBegin", "timeSinceForwardBegin")
    public static let forwardFinish = Action(standard: 15, "ForwardFinish", "timeSinceForwardFinish")
    public static let rewindBegin = Action(standard: 16, "RewindBegin", "timeSinceRewindBegin")
    public static let rewindFinish = Action(standard: 17, "RewindFinish", "timeSinceRewindFinish")
    public static let qualityChangeUp = Action(standard: 18, "QualityChangeUp", "timeSinceQualityChangeUp")
    public static let qualityChangeDown = Action(standard: 19, "QualityChangeDown", "timeSinceQualityChangeDown")
    public static let stop = Action(standard: 20, "Stop", "timeSinceStop")
    public static let end = Action(standard: 21, "End", "timeSinceEnd")
    public static let next = Action(standard: 22, "Next", "timeSinceNext")
    public static let error = Action(standard: 23, "Error", "timeSinceError")
    public static let ping = Action(standard: 24, "Ping", "timeSincePing")
    // Ads.
    public static let adBreakBegin = Action(standard: 25, "AdBreakBegin", "timeSinceAdBreakBegin")
    public static let adBreakFinish = Action(standard: 26, "AdBreakFinish", "timeSinceAdBreakFinish")
    public static let adBegin = Action(standard: 27, "AdBegin", "timeSinceAdBegin")
    public static let adFinish = Action(standard: 28, "AdFinish", "timeSinceAdFinish")
    public static let adPauseBegin = Action(standard: 29, "AdPauseBegin", "timeSinceAdPauseBegin")
    public static let adPauseFinish = Action(standard: 30, "AdPauseFinish", "timeSinceAdPauseFinish")
    public static let adBufferBegin = Action(standard: 31, "AdBufferBegin", "timeSinceAdBufferBegin")
    public static let adBufferFinish = Action(standard: 32, "AdBufferFinish", "timeSinceAdBufferFinish")
    public static let adSkip = Action(standard: 33, "AdSkip", "timeSinceAdSkip")
    public static let adClick = Action(standard: 34, "AdClick", "timeSinceAdClick")
    public static let adFirstQuartile = Action(standard: 35, "AdFirstQuartile", "timeSinceAdFirstQuartile")
    public static let adSecondQuartile = Action(standard: 36, "AdSecondQuartile", "timeSinceAdSecondQuartile")
    public static let adThirdQuartile = Action(standard: 37, "AdThirdQuartile", "timeSinceAdThirdQuartile")
    public static let adError = Action(standard: 38, "AdError", "timeSinceAdError")

    /// The 39 standard actions, in OpenAVT's order.
    public static let standard: [Action] = [
        .trackerInit, .mediaRequest, .playerSet, .playerReady, .prepareItem, .manifestLoad, .streamLoad, .start,
        .bufferBegin, .bufferFinish, .seekBegin, .seekFinish, .pauseBegin, .pauseFinish, .forwardBegin,
        .forwardFinish, .rewindBegin, .rewindFinish, .qualityChangeUp, .qualityChangeDown, .stop, .end, .next,
        .error, .ping, .adBreakBegin, .adBreakFinish, .adBegin, .adFinish, .adPauseBegin, .adPauseFinish,
        .adBufferBegin, .adBufferFinish, .adSkip, .adClick, .adFirstQuartile, .adSecondQuartile, .adThirdQuartile,
        .adError,
    ]

    /// Which standard action this is (`nil` for a custom action): what hubs and metricalcs switch on, without
    /// comparing actions.
    public var standardAction: StandardAction? { standardIndex.flatMap(StandardAction.init(rawValue:)) }

    /// The index of a standard action in ``standard`` (`nil` for a custom action).
    public var standardIndex: Int? {
        let id = timeAttribute.id
        guard id >= Action.firstTimeAttributeID, id < Action.firstTimeAttributeID + 64 else { return nil }
        return Int(id - Action.firstTimeAttributeID)
    }

    /// Whether the action belongs to ads.
    public var isAdAction: Bool {
        let id = timeAttribute.id
        return id >= Action.adBreakBegin.timeAttribute.id && id <= Action.adError.timeAttribute.id
    }
}

/// The 39 standard actions as an enumeration, in OpenAVT's order (``Action/standardAction``).
public enum StandardAction: Int, Sendable, CaseIterable {
    case trackerInit, mediaRequest, playerSet, playerReady, prepareItem, manifestLoad, streamLoad, start, bufferBegin, bufferFinish, seekBegin, seekFinish, pauseBegin, pauseFinish, forwardBegin, forwardFinish, rewindBegin, rewindFinish, qualityChangeUp, qualityChangeDown, stop, end, next, error, ping, adBreakBegin, adBreakFinish, adBegin, adFinish, adPauseBegin, adPauseFinish, adBufferBegin, adBufferFinish, adSkip, adClick, adFirstQuartile, adSecondQuartile, adThirdQuartile, adError
}
