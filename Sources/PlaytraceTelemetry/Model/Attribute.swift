import PlaytraceCore

/// A named property of an event: standard ones (OpenAVT's 46, the time-since attribute of each standard action,
/// and Playtrace's dimensions) and custom ones, created by name.
///
/// An attribute is its identifier: a small number assigned when it is created (standard ones have fixed ones), which
/// keeps events cheap to build, copy and search (copying an attribute counts no reference). Its name comes from a
/// table (standard attributes) or from the registry that assigned the identifier (custom ones). Two attributes created
/// with the same name are the same attribute.
///
/// ```swift
/// let rating = Attribute(name: "contentRating")   // by convention, lower camel case
/// event[rating] = "PG"
/// ```
public struct Attribute: Sendable, Hashable, CustomStringConvertible {
    /// Identifies the attribute within the process.
    public let id: UInt32

    /// The attribute with this name (a standard one when the name is standard).
    public init(name: String) {
        id = AttributeRegistry.shared.id(for: name)
    }

    /// A standard attribute. (The constants below are made on the spot from their identifiers: reading one costs
    /// no lazy initialization.)
    @usableFromInline
    init(standard id: UInt32) {
        self.id = id
    }

    /// The name backends write.
    public var name: String {
        if let slot = Attribute.standardSlot(of: id), let name = AttributeRegistry.standardNames[slot] { return name }
        return AttributeRegistry.shared.name(of: id)
    }

    /// Where a standard attribute sits in a table of 128: identifiers 0–63, then the standard actions' time-since
    /// attributes (100–163) at 64–127; `nil` for custom attributes. Hot paths index or mask by it instead of hashing.
    @inlinable
    public static func standardSlot(of id: UInt32) -> Int? {
        if id < 64 { return Int(id) }
        if id >= 100, id < 164 { return Int(id - 36) }
        return nil
    }

    public var description: String { name }
}

/// Assigns identifiers to attribute names: the standard ones first, in a fixed order, then custom ones as they
/// are created; keeps the names of custom attributes and of custom actions.
final class AttributeRegistry: Sendable {
    static let shared = AttributeRegistry()

    /// Custom attributes get identifiers from here up.
    static let firstCustomID: UInt32 = 10_000

    /// The standard attributes' names by ``Attribute/standardSlot(of:)`` (literals: copying one counts no
    /// reference).
    static let standardNames: [String?] = {
        var names = [String?](repeating: nil, count: 128)
        for (id, name) in attributeNames.enumerated() { names[id] = name }
        for (index, action) in Action.standardNames.enumerated() {
            names[Attribute.standardSlot(of: Action.firstTimeAttributeID + UInt32(index))!] = action.timeSince
        }
        return names
    }()

    private struct State {
        var ids: [String: UInt32]
        var customNames: [String] = []
        /// Custom actions' names, by their time-since attribute.
        var actionNames: [UInt32: String] = [:]
    }

    private let state: Locked<State>

    private init() {
        var ids: [String: UInt32] = [:]
        for (slot, name) in Self.standardNames.enumerated() {
            guard let name else { continue }
            ids[name] = slot < 64 ? UInt32(slot) : UInt32(slot) + 36
        }
        state = Locked(State(ids: ids))
    }

    func id(for name: String) -> UInt32 {
        state.withLock { state in
            if let id = state.ids[name] { return id }
            let id = Self.firstCustomID + UInt32(state.customNames.count)
            state.customNames.append(name)
            state.ids[name] = id
            return id
        }
    }

    /// The name of a custom attribute (an identifier this registry assigned).
    func name(of id: UInt32) -> String {
        state.withLock { state in
            let index = Int(id) - Int(Self.firstCustomID)
            return state.customNames.indices.contains(index) ? state.customNames[index] : "attribute\(id)"
        }
    }

    /// Remembers a custom action's name (the first one given for its time-since attribute).
    func registerAction(_ name: String, timeAttribute: UInt32) {
        state.withLock { state in
            if state.actionNames[timeAttribute] == nil { state.actionNames[timeAttribute] = name }
        }
    }

    /// A custom action's name, by its time-since attribute.
    func actionName(timeAttribute: UInt32) -> String? {
        state.withLock { $0.actionNames[timeAttribute] }
    }
}

public extension Attribute {
    /// Every standard attribute: OpenAVT's, Playtrace's own and the standard actions' time-since ones.
    static var allStandard: [Attribute] { standard }

    internal static let standard: [Attribute] = openAVT + playtrace + Action.standard.map(\.timeAttribute)
}
