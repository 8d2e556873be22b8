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

    /// A standard action, by its index in ``standard``. (The constants below are made on the spot from their
    /// indexes: reading one costs no lazy initialization.)
    @usableFromInline
    init(standard index: UInt32) {
        timeAttribute = Attribute(standard: Action.firstTimeAttributeID + index)
    }

    @usableFromInline static let firstTimeAttributeID: UInt32 = 100

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
    @inlinable public static var trackerInit: Action { Action(standard: 0) }
    @inlinable public static var mediaRequest: Action { Action(standard: 1) }
    @inlinable public static var playerSet: Action { Action(standard: 2) }
    @inlinable public static var playerReady: Action { Action(standard: 3) }
    @inlinable public static var prepareItem: Action { Action(standard: 4) }
    @inlinable public static var manifestLoad: Action { Action(standard: 5) }
    @inlinable public static var streamLoad: Action { Action(standard: 6) }
    // Playback.
    @inlinable public static var start: Action { Action(standard: 7) }
    @inlinable public static var bufferBegin: Action { Action(standard: 8) }
    @inlinable public static var bufferFinish: Action { Action(standard: 9) }
    @inlinable public static var seekBegin: Action { Action(standard: 10) }
    @inlinable public static var seekFinish: Action { Action(standard: 11) }
    @inlinable public static var pauseBegin: Action { Action(standard: 12) }
    @inlinable public static var pauseFinish: Action { Action(standard: 13) }
    @inlinable public static var forwardBegin: Action { Action(standard: 14) }
    @inlinable public static var forwardFinish: Action { Action(standard: 15) }
    @inlinable public static var rewindBegin: Action { Action(standard: 16) }
    @inlinable public static var rewindFinish: Action { Action(standard: 17) }
    @inlinable public static var qualityChangeUp: Action { Action(standard: 18) }
    @inlinable public static var qualityChangeDown: Action { Action(standard: 19) }
    @inlinable public static var stop: Action { Action(standard: 20) }
    @inlinable public static var end: Action { Action(standard: 21) }
    @inlinable public static var next: Action { Action(standard: 22) }
    @inlinable public static var error: Action { Action(standard: 23) }
    @inlinable public static var ping: Action { Action(standard: 24) }
    // Ads.
    @inlinable public static var adBreakBegin: Action { Action(standard: 25) }
    @inlinable public static var adBreakFinish: Action { Action(standard: 26) }
    @inlinable public static var adBegin: Action { Action(standard: 27) }
    @inlinable public static var adFinish: Action { Action(standard: 28) }
    @inlinable public static var adPauseBegin: Action { Action(standard: 29) }
    @inlinable public static var adPauseFinish: Action { Action(standard: 30) }
    @inlinable public static var adBufferBegin: Action { Action(standard: 31) }
    @inlinable public static var adBufferFinish: Action { Action(standard: 32) }
    @inlinable public static var adSkip: Action { Action(standard: 33) }
    @inlinable public static var adClick: Action { Action(standard: 34) }
    @inlinable public static var adFirstQuartile: Action { Action(standard: 35) }
    @inlinable public static var adSecondQuartile: Action { Action(standard: 36) }
    @inlinable public static var adThirdQuartile: Action { Action(standard: 37) }
    @inlinable public static var adError: Action { Action(standard: 38) }

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
