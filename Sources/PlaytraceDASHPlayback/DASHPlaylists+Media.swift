public import PlaytraceCore
public import PlaytraceDASH
public import PlaytraceHLS

extension DASHPlaylists {
    /// Which representation of a period a track plays (`own`) and which times and numbers it (`reference`), and its
    /// `BaseURL` location; `nil` when the track is not one of the presentation's.
    func representations(of track: DASHTrack) -> (reference: (ResolvedPeriod) -> ResolvedRepresentation?,
                                                  own: (ResolvedPeriod) -> ResolvedRepresentation?, location: Int)? {
        let ladder = self.ladder
        switch track {
        case .rung(let rung, let location):
            guard ladder.rungs.indices.contains(rung), location < ladder.locations else { return nil }
            // Every rung is timed and numbered by the lowest: variants then share numbers and durations.
            return ({ ladder.representation(rung: 0, in: $0) }, { ladder.representation(rung: rung, in: $0) }, location)
        case .rendition(let kind, let key):
            guard let rendition = ladder.renditions.first(where: { $0.kind == kind && $0.key == key }) else { return nil }
            let own: (ResolvedPeriod) -> ResolvedRepresentation? = { ladder.adaptationSet(for: rendition, in: $0)?.representations.first }
            return (own, own, 0)
        }
    }

    /// A track's media playlist at `now` (the server's time; needed only by a live presentation): the segments
    /// available then, at most ``maximumSegments``, across periods. `nil` when the track is not one of the
    /// presentation's.
    public mutating func mediaPlaylist(_ track: DASHTrack, at now: StreamDate?) -> MediaPlaylist? {
        let periods = presentation.periods
        guard let (reference, own, location) = representations(of: track) else { return nil }
        let chunks = availableChunks(periods: periods, reference: reference, now: now)
        // The reference segments listed, in order: what the numbers are given by.
        var listed: [(timing: SegmentReference, period: Int, index: Int64)] = []
        for chunk in chunks {
            guard let representation = reference(periods[chunk.period]) else { continue }
            for index in chunk.indices {
                guard let timing = representation.segments.segment(at: index) else { break }
                listed.append((timing, chunk.period, index))
            }
        }
        var playlist = MediaPlaylist(targetDuration: 1, hasIndependentSegments: true)
        playlist.mediaSequence = firstSequence(track, listed.map {
            SequenceAnchor.Listed(period: periods[$0.period].id, index: $0.index, start: $0.timing.start)
        }, periods: periods, reference: reference)
        var maximumDuration = 0.0
        var openedPeriod: Int?
        var source: PeriodSource?
        for (timing, position, index) in listed {
            if openedPeriod != position {
                let period = periods[position]
                source = own(period).flatMap { representation in
                    PeriodSource(representation, location: location,
                                 isReference: representation.id == reference(period)?.id)
                }
            }
            var segment = self.segment(timing: timing, index: index, source: source, isRung: track.isRung)
            if openedPeriod != position {
                // Each period opens with a discontinuity (but the playlist's first) and its initialization segment.
                segment.tags.isDiscontinuity = openedPeriod != nil
                if let source, let initialization = source.representation.segments.initialization,
                   let url = SegmentURLJoin.join(initialization.path, at: source.base, directory: source.directory) {
                    segment.tags.map = MediaInitializationSection(uri: url,
                                                                  byteRange: initialization.byteRange?.hls)
                }
                openedPeriod = position
            }
            // Dated by the wall clock the MPD anchors it to: a live one's, or an on-demand one's that states one.
            if let start = presentation.availabilityStartTime {
                segment.tags.programDateTime = start + timing.start
            }
            maximumDuration = max(maximumDuration, segment.duration)
            playlist.segments.append(segment)
        }
        let starts = listed.map(\.timing.start)
        markAdBreaks(in: &playlist, starts: starts)
        // Bounded before the conversion: a timeline may state a segment of 2^63 ticks.
        playlist.targetDuration = max(1, Int(min(maximumDuration, 1e9).rounded(.up)))
        if presentation.type == .static {
            playlist.playlistType = .vod
            playlist.hasEndList = true
        } else if let delay = presentation.written.suggestedPresentationDelay {
            playlist.start = StartPoint(timeOffset: MediaTime(.zero - delay))
        }
        playlist.renumber()
        return playlist
    }

    /// The number of the first of `listed`, from the track's anchor (``SequenceAnchor``; a first playlist numbers
    /// from its first segment's index in its period), and the anchor moved to the newest listed.
    private mutating func firstSequence(_ track: DASHTrack, _ listed: [SequenceAnchor.Listed], periods: [ResolvedPeriod],
                                        reference: (ResolvedPeriod) -> ResolvedRepresentation?) -> Int {
        guard let first = listed.first, let last = listed.last else { return anchors[track.key]?.sequence ?? 0 }
        let sequence = anchors[track.key].map { anchor in
            anchor.firstSequence(of: listed) { anchor in
                periods.first { $0.id == anchor.period }.flatMap(reference)?.segments.index(containing: anchor.start)
            }
        } ?? Int(clamping: first.index)
        anchors[track.key] = SequenceAnchor(period: last.period, start: last.start,
                                            sequence: sequence.addingSaturating(listed.count - 1))
        return sequence
    }

    /// The segments of one period a playlist lists: indexes of the period's reference representation.
    struct Chunk {
        var period: Int
        var indices: ClosedRange<Int64>
    }

    /// The segments available at `now`, period by period, at most ``maximumSegments``: a live presentation's
    /// newest, an on-demand one's first.
    private mutating func availableChunks(periods: [ResolvedPeriod], reference: (ResolvedPeriod) -> ResolvedRepresentation?,
                                          now: StreamDate?) -> [Chunk] {
        var chunks: [Chunk] = []
        var remaining = Int64(maximumSegments)
        if presentation.type == .dynamic {
            guard let now else { return [] }
            for (position, period) in periods.enumerated().reversed() where remaining > 0 {
                guard let representation = reference(period) else { continue }
                let window = AvailabilityWindow(
                    presentation, at: now,
                    availabilityTimeOffset: (representation.baseURLs.first?.availabilityTimeOffset ?? 0)
                        + representation.segments.addressing.availabilityTimeOffset)
                guard let available = window.available(in: representation.segments) else { continue }
                let lower = max(available.lowerBound, available.upperBound - remaining + 1)
                chunks.insert(Chunk(period: position, indices: lower...available.upperBound), at: 0)
                remaining -= available.upperBound - lower + 1
            }
            return chunks
        }
        for (position, period) in periods.enumerated() where remaining > 0 {
            guard let representation = reference(period) else { continue }
            guard let count = representation.segments.count, count > 0 else {
                note(MPDProblem(line: period.line, "period \(period.id) has no countable segments: it is left out"))
                continue
            }
            let upper = min(count, remaining) - 1
            if upper < count - 1 {
                note(MPDProblem(line: period.line, "the presentation has more than \(maximumSegments) segments: "
                    + "period \(period.id) is played up to its segment \(upper)"))
            }
            chunks.append(Chunk(period: position, indices: 0...upper))
            remaining -= upper + 1
        }
        return chunks
    }

    /// A segment of `own` at the time of the reference segment `timing`: the one with the same index when it
    /// starts there (aligned representations), else the one covering that time; a gap when there is none.
    /// A segment the track does not have at that time (`EXT-X-GAP`): played past, never requested.
    private static func gap(duration: Double) -> Segment {
        var gap = Segment(uri: "gap", duration: duration)
        gap.tags.isGap = true
        return gap
    }

    private func segment(timing: SegmentReference, index: Int64, source: PeriodSource?, isRung: Bool) -> Segment {
        let duration = timing.duration.seconds
        guard let source else {
            return Self.gap(duration: duration)
        }
        let segments = source.representation.segments
        var found: SegmentReference?
        if source.isReference {
            found = timing
        } else if let aligned = segments.segment(at: index), aligned.start == timing.start {
            found = aligned
        } else if let index = segments.index(containing: timing.start) {
            found = segments.segment(at: index)
        }
        guard let media = found, let url = SegmentURLJoin.join(media.path, at: source.base, directory: source.directory)
        else {
            return Self.gap(duration: duration)
        }
        // A rendition keeps its own durations; a rung takes the reference's, which every rung shares.
        let own = isRung ? duration : media.duration.seconds
        return Segment(uri: url, duration: own, byteRange: media.byteRange?.hls)
    }

}

/// A track's representation in one period, and where its segments are: worked out once per period, not per segment.
private struct PeriodSource {
    var representation: ResolvedRepresentation
    /// The base URL at the track's location (wrapping when the period has fewer locations than the first).
    var base: ResolvedBaseURL
    /// The base's directory, for plain relative paths (``SegmentURLJoin``).
    var directory: String?
    /// Whether it is the representation the playlist is timed by: its segments are those listed.
    var isReference: Bool

    init?(_ representation: ResolvedRepresentation, location: Int, isReference: Bool) {
        guard !representation.baseURLs.isEmpty else { return nil }
        self.representation = representation
        base = representation.baseURLs[location % representation.baseURLs.count]
        directory = SegmentURLJoin.directory(of: base.url.absoluteString)
        self.isReference = isReference
    }
}

extension DASHTrack {
    var isRung: Bool {
        if case .rung = self { return true }
        return false
    }

    /// The key a rendition's numbering is kept under.
    var key: String {
        switch self {
        case .rung: "rungs"
        case .rendition(let kind, let key): "\(kind.rawValue):\(key)"
        }
    }
}

extension PlaytraceDASH.ByteRange {
    /// The same bytes as HLS writes them (a length and an offset).
    public var hls: PlaytraceHLS.ByteRange {
        PlaytraceHLS.ByteRange(length: Int(clamping: count), offset: Int(clamping: first))
    }
}
