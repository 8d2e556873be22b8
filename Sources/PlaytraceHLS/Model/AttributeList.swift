/// The value of one attribute in an HLS attribute list, as it was written.
///
/// RFC 8216bis §4.2 distinguishes quoted strings from unquoted values (decimal integers, hexadecimal sequences,
/// floating-point numbers, enumerated strings and resolutions). The distinction matters when writing a playlist
/// back, so it is kept.
public enum AttributeValue: Sendable, Hashable {
    /// A value written between double quotes, without the quotes.
    case quoted(String)
    /// A value written without quotes.
    case unquoted(String)

    /// The text of the value, without quotes.
    public var text: String {
        switch self {
        case .quoted(let text), .unquoted(let text): return text
        }
    }

    /// The value as it appears in a playlist. An unquoted value that would not read back as itself (it holds a
    /// comma, or starts or ends with white space) is written quoted. Text cannot hold a double quote or a line
    /// break in either form: the parser never produces one, and a model built by hand must not either.
    public var serialized: String {
        switch self {
        case .quoted(let text): return "\"" + text + "\""
        case .unquoted(let text):
            return Self.readsBackUnquoted(text) ? text : "\"" + text + "\""
        }
    }

    /// Whether text written without quotes reads back as itself (no comma, no white space at either end).
    static func readsBackUnquoted(_ text: String) -> Bool {
        !(text.contains(",") || text.first.map { $0 == " " || $0 == "\t" } == true
            || text.last.map { $0 == " " || $0 == "\t" } == true)
    }
}

/// An ordered HLS attribute list: `NAME=VALUE,NAME="quoted value",…`.
///
/// Names are kept in their order of appearance so that a playlist can be written back as it was read. Lookups are
/// linear, which is faster than hashing for the handful of attributes a tag carries.
public struct AttributeList: Sendable, Hashable, Sequence {
    /// The attributes, in order.
    public private(set) var entries: [(name: String, value: AttributeValue)]

    /// An empty attribute list.
    public init() { entries = [] }

    /// An empty attribute list with room for `capacity` attributes.
    init(reservingCapacity capacity: Int) {
        entries = []
        entries.reserveCapacity(capacity)
    }

    /// An attribute list with the given entries.
    public init(_ entries: [(name: String, value: AttributeValue)]) { self.entries = entries }

    public static func == (lhs: AttributeList, rhs: AttributeList) -> Bool {
        lhs.entries.count == rhs.entries.count
            && zip(lhs.entries, rhs.entries).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(entries.count)
        for entry in entries {
            hasher.combine(entry.name)
            hasher.combine(entry.value)
        }
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: AttributeValue)]> {
        entries.makeIterator()
    }

    /// Whether the list has no attribute.
    public var isEmpty: Bool { entries.isEmpty }

    /// The value of the first attribute with this name.
    public subscript(name: String) -> AttributeValue? {
        // Lengths first: most names differ in length, and comparing them costs nothing.
        get {
            let length = name.utf8.count
            return entries.first { $0.name.utf8.count == length && $0.name == name }?.value
        }
        set {
            if let index = entries.firstIndex(where: { $0.name == name }) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append((name, newValue))
            }
        }
    }

    /// Appends an attribute (a duplicate name is kept; the first one wins on lookup).
    public mutating func append(_ name: String, _ value: AttributeValue) { entries.append((name, value)) }

    /// The list without the attributes whose names are in `names`.
    public func removing(_ names: Set<String>) -> AttributeList {
        AttributeList(entries.filter { !names.contains($0.name) })
    }

    /// The list as it appears after a tag's colon.
    public var serialized: String {
        var text = ""
        for (index, entry) in entries.enumerated() {
            if index > 0 { text += "," }
            text += entry.name
            text += "="
            text += entry.value.serialized
        }
        return text
    }
}
