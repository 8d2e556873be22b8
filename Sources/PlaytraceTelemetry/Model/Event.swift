public import PlaytraceCore

/// Something that happened, as a tracker reported it and the hub let it through: an action, when, and attributes.
///
/// ```swift
/// var event = Event(action: .start, date: wallClock.now, time: stopwatch.elapsed)
/// event[.position] = .int(12_000)
/// event[.title] = "The show"
/// ```
public struct Event: Sendable, Hashable {
    public let action: Action
    /// When it happened (wall-clock date derived from the injected clock).
    public var date: StreamDate
    /// When it happened on the instrument's monotonic clock (time since the instrument started): what durations
    /// are measured with.
    public var time: Duration
    public var attributes: AttributeList

    public init(action: Action, date: StreamDate, time: Duration = .zero,
                attributes: AttributeList = AttributeList(capacity: 24)) {
        self.action = action
        self.date = date
        self.time = time
        self.attributes = attributes
    }

    /// The value of an attribute; setting `nil` removes it.
    public subscript(attribute: Attribute) -> AttributeValue? {
        get { attributes[attribute] }
        set { attributes[attribute] = newValue }
    }
}
