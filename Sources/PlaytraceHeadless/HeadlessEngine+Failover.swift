import PlaytraceCore
import PlaytracePlayer

/// Failing over, as hls.js, ExoPlayer and AVPlayer do: a variant that cannot deliver a segment or its playlist is
/// penalized and another one takes over while the buffer plays out; a segment that no variant can deliver is
/// played past as a gap (a warning with its range); playback fails only when nothing playable remains.
extension HeadlessEngine {
    /// The variants adaptation may choose among: those the limits allow (the lowest one when they allow none),
    /// less `failed`, preferring those not penalized, and of those, the ones on the most preferred content-steering
    /// pathway.
    func candidateVariants(excluding failed: Set<Int> = []) -> [VariantInfo] {
        var allowed = variants.filter { limits.allows($0) }
        if allowed.isEmpty, let lowest = variants.min(by: { $0.bandwidth < $1.bandwidth }) { allowed = [lowest] }
        return steering.preferred(health.healthy(allowed.filter { !failed.contains($0.index) }, now: stopwatch.elapsed))
    }

    /// The variants that already failed to deliver segment `sequence`.
    func variantsThatFailed(sequence: Int?) -> Set<Int> {
        segmentFailures.variants(thatFailed: sequence)
    }

    /// How hard to retry a request of `variant`: briefly when another variant could still take over (for a
    /// segment: one that has not failed it yet); the last resort gets every retry.
    func retryPolicy(for variant: Int, sequence: Int? = nil) -> RetryPolicy {
        var excluded = variantsThatFailed(sequence: sequence)
        excluded.insert(variant)
        return candidateVariants(excluding: excluded).isEmpty ? .standard : .failFast
    }

    /// After `variant` could not deliver `segment`: penalizes it and notes the failure. Returns whether another
    /// variant will try the segment (the download loop goes on with it); false when every candidate failed it.
    func noteSegmentFailure(_ error: EngineError, segment: TimelineSegment, variant: Int) -> Bool {
        penalize(variant)
        let failed = segmentFailures.noteFailure(sequence: segment.sequence, variant: variant)
        guard !candidateVariants(excluding: failed).isEmpty else { return false }
        warn(error, "; another variant takes over")
        pendingSwitchReason = .failover
        return true
    }

    /// Plays past a segment that no variant could deliver, as a gap reported with its range; throws a fatal
    /// error when too many segments in a row could not be had.
    func skipAsGap(_ segment: TimelineSegment, variant: Int, error: EngineError) throws(EngineError) {
        let lost = segmentFailures.noteLostSegment()
        guard lost < configuration.maximumConsecutiveGaps else {
            var fatal = error
            fatal.isFatal = true
            fatal.message += "; \(lost) segments in a row could not be loaded from any variant"
            throw fatal
        }
        segmentFailures.insertGap(segment.range)
        var warning = error
        warning.message = "segment \(segment.sequence) (\(Self.seconds(segment.start))–\(Self.seconds(segment.end)) s) "
            + "could not be loaded from any variant and is played past as a gap: \(error.message)"
        warn(warning, "")
        append(segment, variant: variant)
    }

    /// After `variant`'s playlist could not be loaded: penalizes it and moves the download to the best other
    /// variant, which is returned; nil when there is none (the error is then the caller's to fail with).
    func failOverPlaylist(from variant: Int, error: EngineError) -> Int? {
        let now = stopwatch.elapsed
        penalize(variant)
        let others = candidateVariants(excluding: [variant]).filter { !health.isPenalized($0.index, now: now) }
        guard let next = selector.choose(current: nil, variants: others, estimate: throughput.estimate, bufferedAhead: 0)
        else { return nil }
        warn(error, "; variant \(next) takes over")
        downloadVariant = next
        pendingSwitchReason = .failover
        selector.resetHeadroom()
        return next
    }

    /// Reports a failure the engine recovers from.
    func warn(_ error: EngineError, _ suffix: String) {
        var warning = error
        warning.isFatal = false
        warning.message += suffix
        lastError = warning
        logger.warning("recovering", metadata: ["error": "\(warning)"])
        emit(.error(warning))
    }

    private static func seconds(_ value: MediaTime) -> String {
        let milliseconds = Int(saturating: value.seconds * 1_000)
        let fraction = String(milliseconds % 1_000)
        return "\(milliseconds / 1_000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
