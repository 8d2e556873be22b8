/// An ordered list of items with a current one, edited by item reference (items are objects: the same item
/// cannot appear twice).
///
/// This is the Player's playlist logic, kept free of playback so that its rules are testable on their own:
/// - inserting or moving relative to an item that is not in the list, or inserting an item already in it, is
///   refused (`false`);
/// - replacing the list keeps the current item when it is still in it, and otherwise makes the first new
///   item current;
/// - removing the current item makes the next one current (or the previous one when it was the last);
/// - navigation honours ``RepeatMode``: with `.all` the last item advances to the first and the first returns to
///   the last.
public struct ItemQueue<Item: AnyObject>: Sendable where Item: Sendable {
    public private(set) var items: [Item] = []
    /// The index of the current item, when there is one.
    public private(set) var currentIndex: Int?

    public init(items: [Item] = []) {
        self.items = Self.unique(items)
        currentIndex = self.items.isEmpty ? nil : 0
    }

    /// The current item.
    public var currentItem: Item? { currentIndex.map { items[$0] } }

    /// The items before the current one (all of them when there is no current item).
    public var previousItems: [Item] {
        guard let currentIndex else { return [] }
        return Array(items[..<currentIndex])
    }

    /// The items after the current one.
    public var nextItems: [Item] {
        guard let currentIndex else { return items }
        return Array(items[(currentIndex + 1)...])
    }

    /// Whether the list holds the item.
    public func contains(_ item: Item) -> Bool { index(of: item) != nil }

    /// The position of an item.
    public func index(of item: Item) -> Int? { items.firstIndex { $0 === item } }

    /// Replaces the list; duplicates are dropped (the first occurrence is kept).
    public mutating func setItems(_ newItems: [Item]) {
        let current = currentItem
        items = Self.unique(newItems)
        if let current, let index = index(of: current) {
            currentIndex = index
        } else {
            currentIndex = items.isEmpty ? nil : 0
        }
    }

    /// Inserts an item before another one (`nil`: at the front).
    @discardableResult
    public mutating func insert(_ item: Item, before other: Item?) -> Bool {
        guard !contains(item) else { return false }
        guard let other else { return insert(item, at: 0) }
        guard let index = index(of: other) else { return false }
        return insert(item, at: index)
    }

    /// Inserts an item after another one (`nil`: at the end).
    @discardableResult
    public mutating func insert(_ item: Item, after other: Item?) -> Bool {
        guard !contains(item) else { return false }
        guard let other else { return insert(item, at: items.count) }
        guard let index = index(of: other) else { return false }
        return insert(item, at: index + 1)
    }

    /// Inserts an item at the front.
    @discardableResult
    public mutating func prepend(_ item: Item) -> Bool { insert(item, before: nil) }

    /// Inserts an item at the end.
    @discardableResult
    public mutating func append(_ item: Item) -> Bool { insert(item, after: nil) }

    /// Moves an item before another one (`nil`: to the front).
    @discardableResult
    public mutating func move(_ item: Item, before other: Item?) -> Bool {
        guard let from = index(of: item), other !== item else { return false }
        if let other, !contains(other) { return false }
        // A move that changes nothing is refused (Pillarbox's rule): already first, or already just before `other`.
        if let other { if index(of: other) == from + 1 { return false } } else if from == 0 { return false }
        let current = currentItem
        items.remove(at: from)
        let destination = other.flatMap { index(of: $0) } ?? 0
        items.insert(item, at: destination)
        currentIndex = current.flatMap { index(of: $0) }
        return true
    }

    /// Moves an item after another one (`nil`: to the end).
    @discardableResult
    public mutating func move(_ item: Item, after other: Item?) -> Bool {
        guard let from = index(of: item), other !== item else { return false }
        if let other, !contains(other) { return false }
        // Already last, or already just after `other`: refused.
        if let other { if index(of: other) == from - 1 { return false } } else if from == items.count - 1 { return false }
        let current = currentItem
        items.remove(at: from)
        let destination = other.flatMap { index(of: $0) }.map { $0 + 1 } ?? items.count
        items.insert(item, at: destination)
        currentIndex = current.flatMap { index(of: $0) }
        return true
    }

    /// Removes an item; when it was current, the next item (or else the previous one) becomes current.
    @discardableResult
    public mutating func remove(_ item: Item) -> Bool {
        guard let index = index(of: item) else { return false }
        items.remove(at: index)
        guard let current = currentIndex else { return true }
        if items.isEmpty {
            currentIndex = nil
        } else if index < current {
            currentIndex = current - 1
        } else if index == current {
            currentIndex = min(current, items.count - 1)
        }
        return true
    }

    /// Removes every item.
    public mutating func removeAll() {
        items.removeAll()
        currentIndex = nil
    }

    /// Makes an item of the list current.
    @discardableResult
    public mutating func setCurrent(_ item: Item?) -> Bool {
        guard let item else {
            currentIndex = nil
            return true
        }
        guard let index = index(of: item) else { return false }
        currentIndex = index
        return true
    }

    /// The item that follows the current one, given a repeat mode (`.one` navigates like `.off`).
    public func nextItem(repeatMode: RepeatMode) -> Item? {
        guard let currentIndex else { return items.first }
        if currentIndex + 1 < items.count { return items[currentIndex + 1] }
        return repeatMode == .all ? items.first : nil
    }

    /// The item that precedes the current one, given a repeat mode.
    public func previousItem(repeatMode: RepeatMode) -> Item? {
        guard let currentIndex else { return nil }
        if currentIndex > 0 { return items[currentIndex - 1] }
        return repeatMode == .all ? items.last : nil
    }

    private mutating func insert(_ item: Item, at index: Int) -> Bool {
        items.insert(item, at: index)
        if let current = currentIndex {
            if index <= current { currentIndex = current + 1 }
        } else if items.count == 1 {
            currentIndex = 0
        }
        return true
    }

    private static func unique(_ items: [Item]) -> [Item] {
        var seen = Set<ObjectIdentifier>()
        return items.filter { seen.insert(ObjectIdentifier($0)).inserted }
    }
}
