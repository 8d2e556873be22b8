/// An instrument's trackers by identifier, in the order they were added (identifiers only grow).
///
/// A player's instrument has a handful of trackers; a probe's shared one has two per viewer, thousands. The list is
/// kept in identifier order (new identifiers are the largest, so adding one appends) and searched by halves: a
/// handful costs as little as a linear search, thousands stay a few comparisons.
struct TrackerTable {
    private var entries: ContiguousArray<(id: TrackerID, entry: TrackerEntry)> = []

    /// Where `id` is, or would go.
    private func position(of id: TrackerID) -> Int {
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].id.rawValue < id.rawValue { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The tracker with an identifier; setting `nil` removes it.
    subscript(id: TrackerID) -> TrackerEntry? {
        get {
            let index = position(of: id)
            return index < entries.count && entries[index].id == id ? entries[index].entry : nil
        }
        set {
            let index = position(of: id)
            let found = index < entries.count && entries[index].id == id
            switch (found, newValue) {
            case (true, let entry?): entries[index].entry = entry
            case (false, let entry?): entries.insert((id, entry), at: index)
            case (true, nil): entries.remove(at: index)
            case (false, nil): break
            }
        }
    }

    /// How many trackers there are.
    var count: Int { entries.count }

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
