/// An event's attributes: a small list searched by attribute identifier (events hold a few dozen attributes at
/// most, for which this beats hashing names).
public struct AttributeList: Sendable, Hashable, Sequence {
    public struct Entry: Sendable, Hashable {
        public let attribute: Attribute
        public var value: AttributeValue
    }

    private var entries: ContiguousArray<Entry> = []

    public init() {}

    /// Room for `count` attributes without reallocating.
    public init(capacity: Int) { entries.reserveCapacity(capacity) }

    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }

    /// The value of an attribute; setting `nil` removes it.
    public subscript(attribute: Attribute) -> AttributeValue? {
        get {
            for entry in entries where entry.attribute.id == attribute.id { return entry.value }
            return nil
        }
        set {
            if let index = entries.firstIndex(where: { $0.attribute.id == attribute.id }) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append(Entry(attribute: attribute, value: newValue))
            }
        }
    }

    /// Whether the list holds an attribute.
    public func contains(_ attribute: Attribute) -> Bool { self[attribute] != nil }

    public func makeIterator() -> ContiguousArray<Entry>.Iterator { entries.makeIterator() }
}
