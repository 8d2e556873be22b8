public import PlaytraceCore

/// The positions where an application wants a movement of the playhead to end (``PlaybackBoundary``), so that a
/// tracker sees playback reach an ad's start or a quartile at once rather than at the next tick: what an engine keeps
/// of ``PlaybackEngine/setReportsProgress(_:)`` and ``PlaybackEngine/setProgressBoundaries(_:)``.
///
/// ```swift
/// var boundaries = ProgressBoundaries()
/// boundaries.set([.time(MediaTime(seconds: 30)), .time(MediaTime(seconds: 10))])
/// boundaries.next(after: MediaTime(seconds: 12), date: nil)   // 00:00:30.000
/// ```
public struct ProgressBoundaries: Sendable {
    /// Whether each movement of the playhead is reported (``EngineEvent/progressed(_:)``).
    public var reportsProgress = false
    /// Media times on the primary, sorted.
    public private(set) var times: [MediaTime] = []
    /// Stream dates on the primary, sorted.
    public private(set) var dates: [StreamDate] = []
    /// Times on each interstitial's own timeline, sorted, by the interstitial's ID.
    public private(set) var interstitialTimes: [String: [MediaTime]] = [:]
    /// The boundary the playback loop's current sleep was timed to reach, if any.
    public var aimed: MediaTime?

    /// How far past a boundary a tick timed for it stops, so that the boundary is inside the movement reported
    /// whatever the rounding of the times.
    public static let overshoot = MediaTime(seconds: 1e-6)

    public init() {}

    /// Replaces the boundaries (those that are not finite are ignored).
    public mutating func set(_ boundaries: [PlaybackBoundary]) {
        var times: [MediaTime] = []
        var dates: [StreamDate] = []
        var interstitialTimes: [String: [MediaTime]] = [:]
        for boundary in boundaries {
            switch boundary {
            case .time(let time) where time.isFinite: times.append(time)
            case .date(let date) where date.secondsSince1970.isFinite: dates.append(date)
            case .interstitial(let id, let time) where time.isFinite: interstitialTimes[id, default: []].append(time)
            default: break
            }
        }
        self.times = times.sorted()
        self.dates = dates.sorted()
        self.interstitialTimes = interstitialTimes.mapValues { $0.sorted() }
    }

    /// The first boundary after a position on the primary: the next boundary time, or the position where the
    /// stream's dates, counted on from the position's date (`date`), reach the next boundary date.
    public func next(after position: MediaTime, date: StreamDate?) -> MediaTime? {
        var next = Self.first(in: times, after: position)
        if let date, let boundaryDate = Self.first(in: dates, after: date) {
            let byDate = position + (boundaryDate - date)
            next = min(next ?? byDate, byDate)
        }
        return next
    }

    /// Whether the date of a position matters to ``next(after:date:)``.
    public var hasDates: Bool { !dates.isEmpty }

    /// The first boundary after a position on an interstitial's timeline.
    public func next(inInterstitial id: String, after position: MediaTime) -> MediaTime? {
        interstitialTimes[id].flatMap { Self.first(in: $0, after: position) }
    }

    /// The first value greater than `value` in a sorted array: a binary search.
    private static func first<Value: Comparable>(in sorted: [Value], after value: Value) -> Value? {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] <= value { low = middle + 1 } else { high = middle }
        }
        return low < sorted.count ? sorted[low] : nil
    }
}
