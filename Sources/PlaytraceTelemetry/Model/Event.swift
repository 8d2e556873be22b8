public import PlaytraceCore

/// Something that happened, as a tracker reported it and the hub let it through: an action, when, and attributes.
///
/// An event's attributes come from three places, read through one subscript:
/// - its own ``attributes`` (the playhead, an error's description, what the emitter passed), which win over the
///   others;
/// - the ``playback`` snapshot the hub adds (playback id, counters, accumulated times, block flags, time since each
///   earlier action);
/// - the tracker's ``context`` (content, session, stream, player set-up): attributes that hold for the tracker's
///   events until one changes, shared between them, so that backends can encode them once.
///
/// ```swift
/// var event = Event(action: .start, date: wallClock.now, time: stopwatch.elapsed)
/// event[.position] = .int(12_000)
/// event[.title] = "The show"
/// let startsSoFar = event[.countStarts]   // from the hub's snapshot
/// ```
public struct Event: Sendable, Hashable {
    public let action: Action
    /// When it happened (wall-clock date derived from the injected clock).
    public var date: StreamDate
    /// When it happened on the instrument's monotonic clock (time since the instrument started): what durations
    /// are measured with (to the nanosecond).
    public var time: Duration {
        get { .nanoseconds(timeNanoseconds) }
        set { timeNanoseconds = ActionTimes.nanoseconds(newValue) }
    }
    /// ``time`` in nanoseconds: what the event keeps, and what hubs, metricalcs and trackers compute with.
    public internal(set) var timeNanoseconds: Int64
    /// The tracker that emitted it: the `senderId` attribute.
    public var sender: TrackerID?
    /// Attributes that hold for the tracker's events until one changes (content, session, stream, player
    /// set-up). A tracker sets the same list on successive events (``AttributeList/isIdentical(to:)``), which lets
    /// backends reuse what they made of it.
    public var context: AttributeList
    /// The event's own attributes; they win over the playback snapshot's and the context's.
    public var attributes: AttributeList
    /// The playback's state as the hub saw it (``PlaybackSnapshot/none`` without a hub that makes one).
    public var playback: PlaybackSnapshot

    public init(action: Action, date: StreamDate, time: Duration = .zero, sender: TrackerID? = nil,
                context: AttributeList = AttributeList(), attributes: AttributeList = AttributeList(),
                playback: PlaybackSnapshot = .none) {
        self.action = action
        self.date = date
        timeNanoseconds = ActionTimes.nanoseconds(time)
        self.sender = sender
        self.context = context
        self.attributes = attributes
        self.playback = playback
    }

    /// An event as the instrument makes it: its time in nanoseconds, no context or playback yet.
    init(action: Action, date: StreamDate, timeNanoseconds: Int64, sender: TrackerID, attributes: AttributeList) {
        self.action = action
        self.date = date
        self.timeNanoseconds = timeNanoseconds
        self.sender = sender
        context = AttributeList()
        self.attributes = attributes
        playback = .none
    }

    /// The value of an attribute, wherever the event holds it; setting a value makes it one of the event's own,
    /// setting `nil` removes it from everywhere.
    public subscript(attribute: Attribute) -> AttributeValue? {
        get {
            if let value = attributes[attribute] { return value }
            if let value = playback[attribute] { return value }
            if attribute.id == Attribute.senderId.id, let sender { return .int(sender.rawValue) }
            return context[attribute]
        }
        set {
            if let newValue {
                attributes[attribute] = newValue
                return
            }
            attributes[attribute] = nil
            if context.contains(attribute) { context[attribute] = nil }
            playback.remove(attribute)
            if attribute.id == Attribute.senderId.id { sender = nil }
        }
    }

    /// Whether the subscript reads a state attribute of the playback snapshot (by ``Attribute/ID``) straight from
    /// the snapshot: the snapshot carries it and the event's own attributes do not replace it. Hubs and metricalcs
    /// then read the snapshot's field instead of an ``AttributeValue``.
    @inline(__always)
    func readsFromSnapshot(_ id: UInt32) -> Bool {
        playback.carries(id) && !attributes.mayContain(id)
    }

    /// Calls `body` with each attribute once, as the subscript reads it: `senderId`, the context, the event's own
    /// attributes, then the playback snapshot's.
    public func forEachAttribute(_ body: (Attribute, AttributeValue) throws -> Void) rethrows {
        let playback = playback
        func isShadowed(_ attribute: Attribute) -> Bool {
            if attributes.contains(attribute) { return true }
            return playback[attribute] != nil
        }
        if let sender, !isShadowed(.senderId) { try body(.senderId, .int(sender.rawValue)) }
        for entry in context where !isShadowed(entry.attribute) && !(entry.attribute == .senderId && sender != nil) {
            try body(entry.attribute, entry.value)
        }
        for entry in attributes { try body(entry.attribute, entry.value) }
        try playback.forEach { attribute, value in
            if !attributes.contains(attribute) { try body(attribute, value) }
        }
    }

    /// Every attribute in one list, in ``forEachAttribute(_:)``'s order (for backends that write them all).
    public var allAttributes: AttributeList {
        var list = AttributeList(capacity: context.count + attributes.count + 24)
        forEachAttribute { list[$0] = $1 }
        return list
    }
}
