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

    /// Calls `body` with the identifier of each time-since attribute and its value in milliseconds, in the order
    /// their actions first happened: what encoders on hot paths use (no attribute is copied;
    /// ``timeSinceAttribute(id:)`` gives a custom one's name).
    @inlinable
    package func forEachTimeSinceID(_ body: (UInt32, Int) throws -> Void) rethrows {
        try times.forEachID(body)
    }

    /// Lends what the time-since values are computed from, for encoders on hot paths: the time of each action's last
    /// event (in the order the actions first happened), the event's own time, and the event's own action (its
    /// time-since attribute's identifier) with the time that action had before (`nil`: never), which replaces the
    /// entry's for that action. The value of an entry is `(now - nanoseconds) / 1_000_000` ms. `nil` (and `body`
    /// not called) when the event removed some of them: ``forEachTimeSinceID(_:)`` then.
    @inlinable
    package func withTimeSinceEntries<Result>(
        _ body: (_ entries: borrowing [ActionTimes.Entry], _ now: Int64, _ current: UInt32, _ previous: Int64?)
            throws -> Result
    ) rethrows -> Result? {
        guard times.hidden == nil else { return nil }
        return try times.times.withEntries { try body($0, times.now, times.current, times.previous) }
    }

    /// The time-since attribute with an identifier, among those the snapshot holds.
    package func timeSinceAttribute(id: UInt32) -> Attribute? {
        times.times.first { $0.attribute.id == id }?.attribute
    }

    /// Calls `body` with each time-since attribute and its value in milliseconds, in the order their actions first
    /// happened.
    @inlinable
    package func forEachTimeSince(_ body: (borrowing Attribute, Int) throws -> Void) rethrows {
        try times.forEach(body)
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
        func forEachID(_ body: (UInt32, Int) throws -> Void) rethrows {
            let hidden = hidden ?? []
            try times.withEntries { entries in
                for index in entries.indices {
                    let id = entries[index].attribute.id
                    guard let time = entries[index].time(current: current, previous: previous) else { continue }
                    if !hidden.isEmpty, hidden.contains(id) { continue }
                    try body(id, Int((now &- time) / 1_000_000))
                }
            }
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
