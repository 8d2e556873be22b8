import PlaytraceCore

/// The segments that could not be had: which variants failed the segment being downloaded, how many segments in a
/// row no variant could deliver, and the ranges played past as gaps (those `EXT-X-GAP` marks, and those lost).
struct SegmentFailures: Sendable {
    /// The variants that failed to deliver the segment being downloaded, and its sequence number.
    private var failed: (sequence: Int, variants: Set<Int>)?
    /// Segments in a row that no variant could deliver.
    private(set) var consecutiveGaps = 0
    /// The ranges played past as gaps.
    private(set) var gaps = MediaTimeRangeSet()

    /// The variants that already failed to deliver segment `sequence`.
    func variants(thatFailed sequence: Int?) -> Set<Int> {
        guard let failed, failed.sequence == sequence else { return [] }
        return failed.variants
    }

    /// `variant` could not deliver segment `sequence`: returns every variant that failed it.
    mutating func noteFailure(sequence: Int, variant: Int) -> Set<Int> {
        var variants = variants(thatFailed: sequence)
        variants.insert(variant)
        failed = (sequence, variants)
        return variants
    }

    /// A segment was downloaded: the run of lost segments ends.
    mutating func segmentLoaded() { consecutiveGaps = 0 }

    /// A segment is in the buffer (downloaded or played past as a gap): the next one starts with no failure.
    mutating func segmentBuffered() { failed = nil }

    /// A range played past as a gap: one the playlist marks (`EXT-X-GAP`), or a segment lost.
    mutating func insertGap(_ range: MediaTimeRange) { gaps.insert(range) }

    /// A segment no variant could deliver: returns how many in a row were lost.
    mutating func noteLostSegment() -> Int {
        consecutiveGaps += 1
        failed = nil
        return consecutiveGaps
    }
}
