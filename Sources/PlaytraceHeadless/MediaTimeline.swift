import Foundation
import PlaytraceCore
import PlaytraceHLS

/// One segment placed on the engine's timeline.
struct TimelineSegment: Sendable, Hashable {
    var sequence: Int
    var start: Double
    var duration: Double
    var date: StreamDate?
    var isGap: Bool
    var end: Double { start + duration }
}

/// A resource to fetch: a URL, and a byte range of it when only part is wanted.
struct ResourceLocation: Sendable, Hashable {
    var url: URL
    var byteRange: ByteRange?
}

/// Where one segment of one variant is, and the initialization section and key in effect for it.
struct SegmentLocation: Sendable, Hashable {
    var resource: ResourceLocation
    var initializationSection: ResourceLocation?
    var key: URL?
}

/// The engine's timeline: segments keyed by media sequence number, placed once and kept in place across playlist
/// refreshes and variant switches (variants of one stream share sequence numbers and durations).
///
/// A live window slides: segments that leave the playlist leave the timeline; new ones are appended after the
/// last known one.
struct MediaTimeline: Sendable {
    private(set) var segments: [TimelineSegment] = []
    /// Segment locations per variant, by media sequence.
    private(set) var locations: [Int: [Int: SegmentLocation]] = [:]
    private(set) var targetDuration: Double = 0
    private(set) var isFinished = false

    var first: TimelineSegment? { segments.first }
    var last: TimelineSegment? { segments.last }
    var range: MediaTimeRange {
        guard let first, let last else { return .empty }
        return MediaTimeRange(start: MediaTime(seconds: first.start), end: MediaTime(seconds: last.end))
    }

    /// Merges a variant's playlist: returns whether the window changed (new segments, or segments removed).
    @discardableResult
    mutating func merge(_ playlist: MediaPlaylist, variant: Int, baseURL: URL) -> Bool {
        targetDuration = Double(playlist.targetDuration)
        isFinished = playlist.isFinished
        let dates = ProgramDateTimeMap(playlist)
        var dateBySequence: [Int: StreamDate] = [:]
        for entry in dates.entries { dateBySequence[entry.mediaSequence] = entry.startDate }
        var variantLocations = locations[variant] ?? [:]
        var changed = false
        let firstSequence = playlist.segments.first?.mediaSequence
        var initializationSection: ResourceLocation?
        var key: URL?
        for segment in playlist.segments {
            if let map = segment.tags.map, let url = URL(string: map.uri, relativeTo: baseURL)?.absoluteURL {
                initializationSection = ResourceLocation(url: url, byteRange: map.byteRange)
            }
            if let last = segment.tags.keys.last {
                key = last.method == .none ? nil : last.uri.flatMap { URL(string: $0, relativeTo: baseURL)?.absoluteURL }
            }
            if let url = URL(string: segment.uri, relativeTo: baseURL)?.absoluteURL {
                variantLocations[segment.mediaSequence] = SegmentLocation(
                    resource: ResourceLocation(url: url, byteRange: segment.resolvedByteRange),
                    initializationSection: initializationSection, key: key)
            }
            if let lastKnown = segments.last, segment.mediaSequence <= lastKnown.sequence { continue }
            let start: Double
            if let lastKnown = segments.last {
                // Sequence numbers past the end follow it; a jump (missed refreshes) keeps them contiguous.
                start = lastKnown.end
            } else {
                start = segment.startTime.seconds
            }
            segments.append(TimelineSegment(
                sequence: segment.mediaSequence, start: start, duration: segment.duration,
                date: dateBySequence[segment.mediaSequence], isGap: segment.tags.isGap))
            changed = true
        }
        if let firstSequence, !playlist.isFinished || playlist.playlistType != .vod {
            let before = segments.count
            segments.removeAll { $0.sequence < firstSequence }
            if segments.count != before { changed = true }
            variantLocations = variantLocations.filter { $0.key >= firstSequence }
        }
        locations[variant] = variantLocations
        return changed
    }

    func location(sequence: Int, variant: Int) -> SegmentLocation? { locations[variant]?[sequence] }

    func segment(sequence: Int) -> TimelineSegment? {
        guard let first, sequence >= first.sequence else { return nil }
        let index = sequence - first.sequence
        guard index < segments.count, segments[index].sequence == sequence else {
            return segments.first { $0.sequence == sequence }
        }
        return segments[index]
    }

    /// The segment covering a time (the last one for a time at or past the end).
    func segment(containing time: Double) -> TimelineSegment? {
        guard let first, let last else { return nil }
        if time < first.start { return first }
        if time >= last.end { return last }
        var low = 0
        var high = segments.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if segments[middle].start <= time { low = middle } else { high = middle - 1 }
        }
        return segments[low]
    }

    /// The stream date at a time, from the covering segment's program-date-time.
    func date(at time: Double) -> StreamDate? {
        guard let segment = segment(containing: time), let date = segment.date else { return nil }
        return date + MediaTime(seconds: time - segment.start)
    }
}
