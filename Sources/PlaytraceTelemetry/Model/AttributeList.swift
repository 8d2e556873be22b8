/// An event's attributes: a small list searched by attribute identifier, with a presence mask for the standard
/// attributes so that setting one that is not there yet (the usual case) appends without searching.
public struct AttributeList: Sendable, Hashable, Sequence {
    public struct Entry: Sendable, Hashable {
        public let attribute: Attribute
        public var value: AttributeValue

        public init(attribute: Attribute, value: AttributeValue) {
            self.attribute = attribute
            self.value = value
        }
    }

    @usableFromInline var entries: ContiguousArray<Entry> = []
    /// Which standard attributes are present, by ``Attribute/standardSlot(of:)``: slots 0–63 in the first mask,
    /// 64–127 in the second.
    @usableFromInline var presentLow: UInt64 = 0
    @usableFromInline var presentTime: UInt64 = 0
    /// How many custom attributes (outside the slots) the list holds.
    @usableFromInline var customCount = 0

    public init() {}

    /// Room for `count` attributes without reallocating.
    public init(capacity: Int) { entries.reserveCapacity(capacity) }

    @inlinable public var count: Int { entries.count }
    @inlinable public var isEmpty: Bool { entries.isEmpty }

    /// Whether the list may hold the attribute (`false` is certain for standard attributes).
    @inlinable @inline(__always)
    func mayContain(_ id: UInt32) -> Bool {
        guard let slot = Attribute.standardSlot(of: id) else { return true }
        return slot < 64 ? presentLow & (1 << UInt64(slot)) != 0 : presentTime & (1 << UInt64(slot - 64)) != 0
    }

    @inlinable @inline(__always)
    mutating func mark(_ id: UInt32, present: Bool) {
        guard let slot = Attribute.standardSlot(of: id) else {
            customCount += present ? 1 : -1
            return
        }
        let bit: UInt64 = 1 << UInt64(slot & 63)
        if slot < 64 {
            if present { presentLow |= bit } else { presentLow &= ~bit }
        } else {
            if present { presentTime |= bit } else { presentTime &= ~bit }
        }
    }

    @inlinable
    func index(of id: UInt32) -> Int? {
        guard mayContain(id) else { return nil }
        return entries.firstIndex { $0.attribute.id == id }
    }

    /// The value of an attribute; setting `nil` removes it.
    @inlinable
    public subscript(attribute: Attribute) -> AttributeValue? {
        get {
            guard let index = index(of: attribute.id) else { return nil }
            return entries[index].value
        }
        set {
            if let index = index(of: attribute.id) {
                if let newValue {
                    entries[index].value = newValue
                } else {
                    entries.remove(at: index)
                    mark(attribute.id, present: false)
                }
            } else if let newValue {
                entries.append(Entry(attribute: attribute, value: newValue))
                mark(attribute.id, present: true)
            }
        }
    }

    /// Whether the list holds an attribute.
    @inlinable
    public func contains(_ attribute: Attribute) -> Bool { index(of: attribute.id) != nil }

    /// Whether both lists hold the same entries: answered at once when they share storage (a tracker that sets the
    /// same list on successive events), entry by entry otherwise. What backends and metricalcs use to reuse what they
    /// made of a tracker's ``Event/context``.
    @inlinable
    public func isIdentical(to other: AttributeList) -> Bool {
        entries == other.entries
    }

    /// Whether the list may hold an attribute of `mask` (standard slots 0–63, as ``Attribute/standardSlot(of:)``)
    /// (`false` is certain).
    @inlinable
    package func mayContain(slots mask: UInt64) -> Bool { presentLow & mask != 0 }


    /// Removes every entry, keeping the storage when the list owns it alone (for lists refilled on hot paths).
    public mutating func removeAll(keepingCapacity: Bool) {
        if keepingCapacity {
            // One at a time: the general range replacement costs more than the few entries such a list holds.
            while !entries.isEmpty { entries.removeLast() }
        } else {
            entries.removeAll()
        }
        presentLow = 0
        presentTime = 0
        customCount = 0
    }

    public func makeIterator() -> ContiguousArray<Entry>.Iterator { entries.makeIterator() }

    /// Lends the entries, in the order they were set (for encoders on hot paths, which read them in place).
    @inlinable
    package func withEntries<Result>(_ body: (borrowing ContiguousArray<Entry>) throws -> Result) rethrows -> Result {
        try body(entries)
    }

    public static func == (lhs: AttributeList, rhs: AttributeList) -> Bool { lhs.entries == rhs.entries }
    public func hash(into hasher: inout Hasher) { hasher.combine(entries) }
}
