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
        guard let index = standardIndex else { return false }
        return Action.adMask & 1 << UInt64(index) != 0
    }
}
