/// What an event reports: OpenAVT's 39 standard actions, or a custom one created by name. Every action has a
/// time-since attribute (`timeSince<Action>`, milliseconds since the previous event of that action in the same
/// playback).
///
/// ```swift
/// let skipIntro = Action(name: "SkipIntro")   // by convention, upper camel case; attribute timeSinceSkipIntro
/// instrument.emit(skipIntro, tracker: trackerID)
/// ```
///
/// An action is its time-since attribute, which identifies it (copying one counts no reference); its name comes from
/// a table (standard actions) or from the registry (custom ones: the first name given for a time-since attribute).
public struct Action: Sendable, Hashable, CustomStringConvertible {
    /// The attribute that holds the time since the previous event of this action.
    public let timeAttribute: Attribute

    /// A custom action; its time-since attribute is `timeSince<name>` unless given.
    public init(name: String, timeAttribute: Attribute? = nil) {
        self.timeAttribute = timeAttribute ?? Attribute(name: "timeSince" + name)
        if standardIndex == nil { AttributeRegistry.shared.registerAction(name, timeAttribute: self.timeAttribute.id) }
    }

    /// A standard action, by its index in ``standard``.
    private init(standard index: UInt32) {
        timeAttribute = Attribute(standard: Action.firstTimeAttributeID + index)
    }

    static let firstTimeAttributeID: UInt32 = 100

    /// The name backends write.
    public var name: String {
        if let index = standardIndex, index < Self.standardNames.count { return Self.standardNames[index].action }
        return AttributeRegistry.shared.actionName(timeAttribute: timeAttribute.id) ?? timeAttribute.name
    }

    public var description: String { name }

    /// The standard actions' names and their time-since attributes' names, in OpenAVT's order (literals: copying
    /// one counts no reference).
    static let standardNames: [(action: String, timeSince: String)] = [
        ("TrackerInit", "timeSinceTrackerInit"),
        ("MediaRequest", "timeSinceMediaRequest"),
        ("PlayerSet", "timeSincePlayerSet"),
        ("PlayerReady", "timeSincePlayerReady"),
        ("PrepareItem", "timeSincePrepareItem"),
        ("ManifestLoad", "timeSinceManifestLoad"),
        ("StreamLoad", "timeSinceStreamLoad"),
        ("Start", "timeSinceStart"),
        ("BufferBegin", "timeSinceBufferBegin"),
        ("BufferFinish", "timeSinceBufferFinish"),
        ("SeekBegin", "timeSinceSeekBegin"),
        ("SeekFinish", "timeSinceSeekFinish"),
        ("PauseBegin", "timeSincePauseBegin"),
        ("PauseFinish", "timeSincePauseFinish"),
        ("ForwardBegin", "timeSinceForwardBegin"),
        ("ForwardFinish", "timeSinceForwardFinish"),
        ("RewindBegin", "timeSinceRewindBegin"),
        ("RewindFinish", "timeSinceRewindFinish"),
        ("QualityChangeUp", "timeSinceQualityChangeUp"),
        ("QualityChangeDown", "timeSinceQualityChangeDown"),
        ("Stop", "timeSinceStop"),
        ("End", "timeSinceEnd"),
        ("Next", "timeSinceNext"),
        ("Error", "timeSinceError"),
        ("Ping", "timeSincePing"),
        ("AdBreakBegin", "timeSinceAdBreakBegin"),
        ("AdBreakFinish", "timeSinceAdBreakFinish"),
        ("AdBegin", "timeSinceAdBegin"),
        ("AdFinish", "timeSinceAdFinish"),
        ("AdPauseBegin", "timeSinceAdPauseBegin"),
        ("AdPauseFinish", "timeSinceAdPauseFinish"),
        ("AdBufferBegin", "timeSinceAdBufferBegin"),
        ("AdBufferFinish", "timeSinceAdBufferFinish"),
        ("AdSkip", "timeSinceAdSkip"),
        ("AdClick", "timeSinceAdClick"),
        ("AdFirstQuartile", "timeSinceAdFirstQuartile"),
        ("AdSecondQuartile", "timeSinceAdSecondQuartile"),
        ("AdThirdQuartile", "timeSinceAdThirdQuartile"),
        ("AdError", "timeSinceAdError"),
    ]

    // Set-up.
    public static let trackerInit = Action(standard: 0)
    public static let mediaRequest = Action(standard: 1)
    public static let playerSet = Action(standard: 2)
    public static let playerReady = Action(standard: 3)
    public static let prepareItem = Action(standard: 4)
    public static let manifestLoad = Action(standard: 5)
    public static let streamLoad = Action(standard: 6)
    // Playback.
    public static let start = Action(standard: 7)
    public static let bufferBegin = Action(standard: 8)
    public static let bufferFinish = Action(standard: 9)
    public static let seekBegin = Action(standard: 10)
    public static let seekFinish = Action(standard: 11)
    public static let pauseBegin = Action(standard: 12)
    public static let pauseFinish = Action(standard: 13)
    public static let forwardBegin = Action(standard: 14)
    public static let forwardFinish = Action(standard: 15)
    public static let rewindBegin = Action(standard: 16)
    public static let rewindFinish = Action(standard: 17)
    public static let qualityChangeUp = Action(standard: 18)
    public static let qualityChangeDown = Action(standard: 19)
    public static let stop = Action(standard: 20)
    public static let end = Action(standard: 21)
    public static let next = Action(standard: 22)
    public static let error = Action(standard: 23)
    public static let ping = Action(standard: 24)
    // Ads.
    public static let adBreakBegin = Action(standard: 25)
    public static let adBreakFinish = Action(standard: 26)
    public static let adBegin = Action(standard: 27)
    public static let adFinish = Action(standard: 28)
    public static let adPauseBegin = Action(standard: 29)
    public static let adPauseFinish = Action(standard: 30)
    public static let adBufferBegin = Action(standard: 31)
    public static let adBufferFinish = Action(standard: 32)
    public static let adSkip = Action(standard: 33)
    public static let adClick = Action(standard: 34)
    public static let adFirstQuartile = Action(standard: 35)
    public static let adSecondQuartile = Action(standard: 36)
    public static let adThirdQuartile = Action(standard: 37)
    public static let adError = Action(standard: 38)

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
