// The stored properties, the state attributes and their values are generated from the vocabulary table
// (PlaybackSnapshot+Fields.swift).
extension PlaybackSnapshot {
    /// ``playbackIdentifier`` as text; setting it sets a ``PlaybackIdentifier/text(_:)``.
    public var playbackID: String? {
        get { playbackIdentifier?.description }
        set { playbackIdentifier = newValue.map(PlaybackIdentifier.text) }
    }

    /// A snapshot that carries nothing: what an event holds without a hub.
    public static var none: PlaybackSnapshot {
        var snapshot = PlaybackSnapshot()
        snapshot.carried = 0
        return snapshot
    }

    /// The slots of standard attributes below 64 as a mask.
    public static func mask(of attributes: [Attribute]) -> UInt64 {
        attributes.reduce(0) { mask, attribute in
            guard attribute.id < 64 else { return mask }
            return mask | 1 << UInt64(attribute.id)
        }
    }

    /// Whether the snapshot carries a state attribute (not a time-since one).
    @inline(__always)
    func carries(_ id: UInt32) -> Bool { id < 64 && carried & (1 << UInt64(id)) != 0 }

    /// The value of a state attribute or a time-since attribute, when the snapshot carries it.
    public subscript(attribute: Attribute) -> AttributeValue? {
        let id = attribute.id
        guard id < 64 else { return times.milliseconds(since: attribute).map(AttributeValue.int) }
        guard carries(id) else { return nil }
        return stateValue(id)
    }

    /// Stops carrying an attribute (an event that removes it).
    public mutating func remove(_ attribute: Attribute) {
        if attribute.id < 64 {
            carried &= ~(1 << UInt64(attribute.id))
        } else {
            times.hide(attribute)
        }
    }

    /// Calls `body` with each attribute the snapshot carries, state attributes first (in ``stateAttributes``'
    /// order), then the time-since values in the order their actions first happened.
    public func forEach(_ body: (Attribute, AttributeValue) throws -> Void) rethrows {
        for attribute in Self.stateAttributes where carries(attribute.id) {
            if let value = stateValue(attribute.id) { try body(attribute, value) }
        }
        try times.forEach { try body(copy $0, .int($1)) }
    }
}

extension PlaybackSnapshot {
    /// The time since each earlier action of a playback, computed when read.
    ///
    /// It holds the playback's ``ActionTimes`` *after* the event's own action was recorded, with the time that
    /// action had before: the hub's state and the event then share one list (no copy per event), and the event
    /// still reads the time since the previous occurrence of its own action.
    @usableFromInline
    struct TimeSince: Sendable, Hashable {
        @usableFromInline var times = ActionTimes()
        /// The event's time (nanoseconds on the instrument's clock).
        @usableFromInline var now: Int64 = 0
        /// The time-since attribute of the event's own action, and when that action happened before (`nil`: never).
        @usableFromInline var current: UInt32 = .max
        @usableFromInline var previous: Int64?
        /// Time-since attributes the event removed (rare: none, without an array to count references to).
        @usableFromInline var hidden: [UInt32]?

        @usableFromInline init() {}

        func milliseconds(since attribute: Attribute) -> Int? {
            if let hidden, hidden.contains(attribute.id) { return nil }
            if attribute.id == current { return previous.map { Int((now - $0) / 1_000_000) } }
            return times.nanoseconds(of: attribute).map { Int((now - $0) / 1_000_000) }
        }

        mutating func hide(_ attribute: Attribute) {
            if hidden?.contains(attribute.id) != true { hidden = (hidden ?? []) + [attribute.id] }
        }

        @inlinable
        func forEach(_ body: (borrowing Attribute, Int) throws -> Void) rethrows {
            let hidden = hidden ?? []
            try times.withEntries { entries in
                // Read in place: copying an entry would count references to its attribute's name.
                for index in entries.indices {
                    let id = entries[index].attribute.id
                    guard let time = entries[index].time(current: current, previous: previous) else { continue }
                    if !hidden.isEmpty, hidden.contains(id) { continue }
                    try body(entries[index].attribute, Int((now &- time) / 1_000_000))
                }
            }
        }
    }
}
