public import PlaytraceCore

/// Maps a media playlist's timeline to stream dates and back, from its `EXT-X-PROGRAM-DATE-TIME` tags.
///
/// A segment's date is its own program-date-time, or the previous segment's date plus that segment's duration.
/// A discontinuity without a new program-date-time breaks the chain: the segments after it have no date until
/// the next tag (rather than a guessed one).
///
/// ```swift
/// let map = ProgramDateTimeMap(playlist)
/// let date = map.date(at: MediaTime(seconds: 12.5))
/// let time = date.flatMap { map.time(at: $0) }     // 12.5 again
/// ```
public struct ProgramDateTimeMap: Sendable, Hashable {
    /// One dated segment: its range on the playlist's timeline and the date of its start.
    public struct Entry: Sendable, Hashable {
        public var segmentIndex: Int
        public var mediaSequence: Int
        public var timeRange: MediaTimeRange
        public var startDate: StreamDate
        public var endDate: StreamDate { startDate + timeRange.duration }
    }

    /// The dated segments, in playlist order.
    public let entries: [Entry]
    private let byDate: [Entry]

    /// Builds the map of a media playlist.
    public init(_ playlist: MediaPlaylist) {
        var entries: [Entry] = []
        entries.reserveCapacity(playlist.segments.count)
        var running: StreamDate?
        // Fields read in place: a segment copied per iteration (its strings and tags retained) costs more than
        // the rest of the pass.
        let segments = playlist.segments
        for index in segments.indices {
            if let date = segments[index].tags.programDateTime {
                running = date
            } else if segments[index].tags.isDiscontinuity {
                running = nil
            }
            if let date = running {
                entries.append(Entry(segmentIndex: index, mediaSequence: segments[index].mediaSequence,
                                     timeRange: segments[index].timeRange, startDate: date))
                running = date + MediaTime(seconds: segments[index].duration)
            }
        }
        self.entries = entries
        // Dates nearly always rise with the segments: the sort (and its copy) is only for playlists where they do not.
        let rising = entries.indices.dropFirst().allSatisfy { entries[$0 - 1].startDate <= entries[$0].startDate }
        self.byDate = rising ? entries : entries.sorted { $0.startDate < $1.startDate }
    }

    /// Whether any segment has a date.
    public var isEmpty: Bool { entries.isEmpty }

    /// The date of the segment with this index, when it has one.
    public func date(ofSegment index: Int) -> StreamDate? {
        entry(where: { $0.segmentIndex >= index }, in: entries).flatMap { $0.segmentIndex == index ? $0.startDate : nil }
    }

    /// The stream date at a time on the playlist's timeline; `nil` when that segment has no date.
    /// A time past the last segment is extrapolated from it.
    public func date(at time: MediaTime) -> StreamDate? {
        guard let last = entries.last else { return nil }
        if time >= last.timeRange.end { return last.startDate + (time - last.timeRange.start) }
        guard let entry = entry(where: { $0.timeRange.end > time }, in: entries), entry.timeRange.contains(time)
        else { return nil }
        return entry.startDate + (time - entry.timeRange.start)
    }

    /// The time on the playlist's timeline at a stream date; `nil` when no dated segment covers it.
    public func time(at date: StreamDate) -> MediaTime? {
        if let entry = entry(where: { $0.endDate > date }, in: byDate), entry.startDate <= date {
            return entry.timeRange.start + (date - entry.startDate)
        }
        // The instant just after a run of dated segments belongs to the run's end.
        if let ending = byDate.last(where: { abs(($0.endDate - date).seconds) < 1e-9 }) { return ending.timeRange.end }
        return nil
    }

    /// The index of the segment that covers a stream date.
    public func segmentIndex(at date: StreamDate) -> Int? {
        guard let entry = entry(where: { $0.endDate > date }, in: byDate), entry.startDate <= date else { return nil }
        return entry.segmentIndex
    }

    /// The dates the playlist covers, from its first dated segment to the end of its last.
    public var dateRange: ClosedRange<StreamDate>? {
        guard let first = byDate.first, let last = byDate.last else { return nil }
        return first.startDate...last.endDate
    }

    /// The first entry for which `predicate` holds, given that it holds for a suffix of `list`.
    private func entry(where predicate: (Entry) -> Bool, in list: [Entry]) -> Entry? {
        var low = 0
        var high = list.count
        while low < high {
            let middle = (low + high) / 2
            if predicate(list[middle]) { high = middle } else { low = middle + 1 }
        }
        return low < list.count ? list[low] : nil
    }
}
