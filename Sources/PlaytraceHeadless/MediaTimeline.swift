import Foundation
import PlaytraceCore
import PlaytraceHLS

/// One segment placed on the engine's timeline.
struct TimelineSegment: Sendable, Hashable {
    var sequence: Int
    var start: MediaTime
    var duration: MediaTime
    var date: StreamDate?
    var isGap: Bool
    var end: MediaTime { start + duration }
    var range: MediaTimeRange { MediaTimeRange(start: start, end: end) }
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

/// A variant's latest media playlist, whose segments' locations are resolved when one is fetched: a refresh costs
/// no URL per segment, and a long live window no location kept per segment.
struct VariantPlaylist: Sendable {
    let playlist: MediaPlaylist
    let baseURL: URL
    /// The media sequence of the playlist's first segment.
    let firstSequence: Int
    /// The segment indexes where an `EXT-X-MAP` starts, in order, and what each puts in effect.
    private let mapStarts: [Int]
    private let maps: [ResourceLocation]
    /// The segment indexes where an `EXT-X-KEY` starts, and the key each puts in effect (`nil`: unencrypted).
    private let keyStarts: [Int]
    private let keys: [URL?]

    init(_ playlist: MediaPlaylist, baseURL: URL) {
        self.playlist = playlist
        self.baseURL = baseURL
        firstSequence = playlist.segments.first?.mediaSequence ?? playlist.mediaSequence
        var (mapStarts, maps, keyStarts, keys): ([Int], [ResourceLocation], [Int], [URL?]) = ([], [], [], [])
        for (index, segment) in playlist.segments.enumerated() where segment.tags.mayHaveRareTags {
            if let map = segment.tags.map, let url = URL(string: map.uri, relativeTo: baseURL)?.absoluteURL {
                mapStarts.append(index)
                maps.append(ResourceLocation(url: url, byteRange: map.byteRange))
            }
            if let last = segment.tags.keys.last {
                keyStarts.append(index)
                keys.append(last.method == .none ? nil : last.uri.flatMap { URL(string: $0, relativeTo: baseURL)?.absoluteURL })
            }
        }
        (self.mapStarts, self.maps, self.keyStarts, self.keys) = (mapStarts, maps, keyStarts, keys)
    }

    /// Where a segment is, with the initialization section and key in effect for it.
    func location(sequence: Int) -> SegmentLocation? {
        let index = sequence - firstSequence
        guard playlist.segments.indices.contains(index) else { return nil }
        let segment = playlist.segments[index]
        guard let url = URL(string: segment.uri, relativeTo: baseURL)?.absoluteURL else { return nil }
        return SegmentLocation(resource: ResourceLocation(url: url, byteRange: segment.resolvedByteRange),
                               initializationSection: mapStarts.lastIndex(atOrBefore: index).map { maps[$0] },
                               key: keyStarts.lastIndex(atOrBefore: index).flatMap { keys[$0] })
    }
}

/// The engine's timeline: segments keyed by media sequence number, placed once and kept in place across playlist
/// refreshes and variant switches (variants of one stream share sequence numbers and durations).
///
/// A live window slides: segments that leave the playlist leave the timeline; new ones are appended after the
/// last known one. A refresh costs time in proportion to what changed (the segments added and removed) plus one
/// pass over the playlist's rare tags; the playlist itself is bounded by the parser's window
/// (`HeadlessEngine.Configuration.maximumPlaylistSegments`).
struct MediaTimeline: Sendable {
    private(set) var segments: [TimelineSegment] = []
    /// Each variant's latest playlist, by variant index.
    private(set) var playlists: [Int: VariantPlaylist] = [:]
    private(set) var targetDuration = MediaTime.zero
    private(set) var isFinished = false

    var first: TimelineSegment? { segments.first }
    var last: TimelineSegment? { segments.last }
    var range: MediaTimeRange {
        guard let first, let last else { return .empty }
        return MediaTimeRange(start: first.start, end: last.end)
    }

    /// Merges a variant's playlist: returns whether the window changed (new segments, or segments removed).
    @discardableResult
    mutating func merge(_ playlist: MediaPlaylist, variant: Int, baseURL: URL) -> Bool {
        targetDuration = MediaTime(seconds: Double(playlist.targetDuration))
        isFinished = playlist.isFinished
        playlists[variant] = VariantPlaylist(playlist, baseURL: baseURL)
        var changed = false
        let incoming = playlist.segments
        // The segments past the last known one are new; those before it are known already.
        var index = 0
        if let lastKnown = segments.last, let firstIncoming = incoming.first {
            index = min(max(lastKnown.sequence + 1 - firstIncoming.mediaSequence, 0), incoming.count)
        }
        // The date running into the first new segment: the last known segment's end, unless a tag says otherwise.
        var date = segments.last.flatMap { last in last.date.map { $0 + last.duration } }
        if index == 0 { date = nil }
        while index < incoming.count {
            let segment = incoming[index]
            if let tagged = segment.tags.programDateTime {
                date = tagged
            } else if segment.tags.isDiscontinuity {
                date = nil
            }
            // Sequence numbers past the end follow it; a jump (missed refreshes) keeps them contiguous.
            let start = segments.last?.end ?? segment.startTime
            let duration = MediaTime(seconds: segment.duration)
            segments.append(TimelineSegment(sequence: segment.mediaSequence, start: start, duration: duration,
                                            date: date, isGap: segment.tags.isGap))
            date = date.map { $0 + duration }
            changed = true
            index += 1
        }
        if let firstSequence = incoming.first?.mediaSequence, !playlist.isFinished || playlist.playlistType != .vod {
            // Segments are in sequence order: those that left the window are at the front.
            let leaving = segments.prefix { $0.sequence < firstSequence }.count
            if leaving > 0 {
                segments.removeFirst(leaving)
                changed = true
            }
        }
        return changed
    }

    func location(sequence: Int, variant: Int) -> SegmentLocation? { playlists[variant]?.location(sequence: sequence) }

    /// Whether a playlist of the variant was merged.
    func hasPlaylist(variant: Int) -> Bool { playlists[variant] != nil }

    func segment(sequence: Int) -> TimelineSegment? {
        guard let first, sequence >= first.sequence else { return nil }
        let index = sequence - first.sequence
        guard index < segments.count, segments[index].sequence == sequence else {
            return segments.first { $0.sequence == sequence }
        }
        return segments[index]
    }

    /// The segment covering a time (the last one for a time at or past the end).
    func segment(containing time: MediaTime) -> TimelineSegment? {
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
    func date(at time: MediaTime) -> StreamDate? {
        guard let segment = segment(containing: time), let date = segment.date else { return nil }
        return date + (time - segment.start)
    }
}
