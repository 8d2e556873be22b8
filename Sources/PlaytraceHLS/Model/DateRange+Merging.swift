import PlaytraceCore

extension DateRange {
    /// Adds the attributes of a later tag with the same `ID` (RFC 8216bis §4.4.5.1: tags with one ID are one date
    /// range; a later tag adds attributes, such as the `END-DATE` or `SCTE35-IN` that closes a break). An attribute
    /// that both tags carry with different values is a conflict: the earlier value stays, and the attribute's name
    /// is returned.
    ///
    /// ```swift
    /// var range = start                       // ID="ad-1",START-DATE=…,PLANNED-DURATION=30
    /// let conflicts = range.merge(end)        // ID="ad-1",START-DATE=…,END-DATE=…(18 s later)
    /// range.effectiveEndDate                  // the END-DATE
    /// ```
    public mutating func merge(_ later: DateRange) -> [String] {
        var conflicts: [String] = []
        func adopt<Value: Equatable>(_ name: String, _ mine: inout Value?, _ theirs: Value?) {
            guard let theirs else { return }
            if let current = mine, current != theirs { conflicts.append(name) } else { mine = theirs }
        }
        if later.startDate != startDate { conflicts.append("START-DATE") }
        adopt("CLASS", &classIdentifier, later.classIdentifier)
        if !later.cue.isEmpty {
            if cue.isEmpty { cue = later.cue } else if cue != later.cue { conflicts.append("CUE") }
        }
        adopt("END-DATE", &endDate, later.endDate)
        adopt("DURATION", &duration, later.duration)
        adopt("PLANNED-DURATION", &plannedDuration, later.plannedDuration)
        if later.endOnNext { endOnNext = true }
        adopt("SCTE35-CMD", &scte35Command, later.scte35Command)
        adopt("SCTE35-OUT", &scte35Out, later.scte35Out)
        adopt("SCTE35-IN", &scte35In, later.scte35In)
        for (name, value) in later.clientAttributes {
            if let current = clientAttributes[name] {
                if current != value { conflicts.append(name) }
            } else {
                clientAttributes[name] = value
            }
        }
        return conflicts
    }

    /// Date ranges with the same `ID` merged into one (``merge(_:)``), in the order of each ID's first tag; the
    /// conflicts are dropped (the parser reports them as warnings with their lines).
    public static func merged(_ ranges: [DateRange]) -> [DateRange] {
        var result: [DateRange] = []
        var indexByID: [String: Int] = [:]
        result.reserveCapacity(ranges.count)
        for range in ranges {
            if let index = indexByID[range.id] {
                _ = result[index].merge(range)
            } else {
                indexByID[range.id] = result.count
                result.append(range)
            }
        }
        return result
    }
}
