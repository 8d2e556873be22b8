import DequeModule
import PlaytraceCore
import PlaytracePlayer

/// The segments downloaded ahead of the playhead, in order, and where the download goes on: what a real client's
/// source buffer holds, without the bytes.
struct ForwardBuffer: Sendable {
    /// A downloaded segment: where it lies on the timeline, and which variant it came from.
    struct Segment: Sendable {
        var sequence: Int
        var start: MediaTime
        var end: MediaTime
        var variant: Int
        /// Why the variant changed with this segment, when it did.
        var switchReason: VariantSwitchReason?
    }

    private(set) var segments = Deque<Segment>()
    /// The media sequence number downloaded next (`nil` while the position is not on the timeline).
    var nextSequence: Int?
    /// Whether the segments to the end of a finished stream are all downloaded.
    var isComplete = false

    var isEmpty: Bool { segments.isEmpty }
    var first: Segment? { segments.first }
    var last: Segment? { segments.last }

    /// Where the buffered media ends, or the playhead when nothing is buffered.
    func end(from playhead: MediaTime) -> MediaTime { segments.last?.end ?? playhead }

    /// How much media is buffered past the playhead.
    func ahead(of playhead: MediaTime) -> MediaTime { end(from: playhead) - playhead }

    /// Whether the buffer holds a time (playback can move there without downloading).
    func holds(_ time: MediaTime) -> Bool {
        guard let first = segments.first, let last = segments.last else { return false }
        return time >= first.start && time < last.end
    }

    /// The segment that plays at a time, or the first one buffered.
    func segment(at time: MediaTime) -> Segment? {
        segments.first { $0.start <= time && time < $0.end } ?? segments.first
    }

    /// Adds a downloaded segment after the others (clipped so that the buffer stays contiguous) and moves the
    /// download position past it; `isLast` says it ends a finished stream.
    mutating func append(_ segment: TimelineSegment, variant: Int, switchReason: VariantSwitchReason?, isLast: Bool) {
        let contiguousStart = segments.last?.end ?? segment.start
        segments.append(Segment(sequence: segment.sequence, start: max(segment.start, min(contiguousStart, segment.end)),
                                end: segment.end, variant: variant, switchReason: switchReason))
        nextSequence = segment.sequence + 1
        if isLast { isComplete = true }
    }

    /// Drops the segments played before the playhead (the last one stays while the playhead is at its end).
    mutating func evict(playedBefore playhead: MediaTime) {
        while let first = segments.first, first.end <= playhead, segments.count > 1 || first.end < playhead {
            segments.removeFirst()
        }
    }

    /// Empties the buffer, keeping the download position.
    mutating func removeAll() { segments.removeAll() }

    /// Empties the buffer; the download goes on from `sequence`.
    mutating func restart(at sequence: Int?) {
        segments.removeAll()
        isComplete = false
        nextSequence = sequence
    }
}
