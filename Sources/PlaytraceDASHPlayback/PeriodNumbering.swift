import PlaytraceCore

/// Media sequence numbers for a DASH presentation's segments, which HLS numbers and DASH does not across periods:
/// each period's first segment gets a base, and its segment k the number base + k. A period keeps its base for as
/// long as it stays in the MPD, across refreshes: a live window whose first periods leave it keeps its numbers,
/// and a period that appears follows the last known one.
struct PeriodNumbering: Sendable, Hashable {
    /// The base of each period in the MPD last seen, by period id.
    private(set) var bases: [String: Int] = [:]

    /// Takes the MPD's periods, in order, each with its segment count (`nil`: not known, the open last period).
    /// The first period ever seen is numbered from 0.
    mutating func update(_ periods: [(id: String, count: Int64?)]) {
        var kept: [String: Int] = [:]
        var next: Int?
        for (id, count) in periods {
            let base = bases[id] ?? next ?? 0
            kept[id] = base
            // A period without a count is the last: whatever follows it later is numbered far past it.
            next = base.addingSaturating(count.map { Int(clamping: $0) } ?? Self.openPeriodSpan)
        }
        bases = kept
    }

    /// What an open period's count is taken to be: more segments than any live period holds.
    static let openPeriodSpan = 1 << 40

    func base(of period: String) -> Int? { bases[period] }
}
