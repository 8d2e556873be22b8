/// An instrument's trackers by identifier, in the order they were added (identifiers only grow).
///
/// An instrument has a handful of trackers (a player's, an ads tracker), so a short list searched from the end
/// finds one faster than a hash table, and it keeps their order for free.
struct TrackerTable {
    private var entries: ContiguousArray<(id: TrackerID, entry: TrackerEntry)> = []

    /// The tracker with an identifier; setting `nil` removes it.
    subscript(id: TrackerID) -> TrackerEntry? {
        get {
            for index in entries.indices.reversed() where entries[index].id == id { return entries[index].entry }
            return nil
        }
        set {
            let index = entries.firstIndex { $0.id == id }
            switch (index, newValue) {
            case (let index?, let entry?): entries[index].entry = entry
            case (nil, let entry?):
                entries.append((id, entry))
                entries.sort { $0.id.rawValue < $1.id.rawValue }
            case (let index?, nil): entries.remove(at: index)
            case (nil, nil): break
            }
        }
    }

    /// Removes a tracker; returns it.
    mutating func removeValue(forKey id: TrackerID) -> TrackerEntry? {
        let entry = self[id]
        self[id] = nil
        return entry
    }

    mutating func removeAll() { entries.removeAll() }

    /// The identifiers, in ascending order.
    var ids: [TrackerID] { entries.map(\.id) }

    /// The trackers, in the order of their identifiers.
    var values: [TrackerEntry] { entries.map(\.entry) }
}
