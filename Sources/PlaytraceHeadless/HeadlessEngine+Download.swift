import Foundation
import PlaytraceCore
import PlaytracePlayer

extension HeadlessEngine {
    /// Fills the forward buffer segment by segment, choosing the variant of each from the throughput estimate.
    func downloadLoop(generation expected: Int, downloadGeneration expectedDownload: Int) async {
        func current() -> Bool {
            !Task.isCancelled && generation == expected && downloadGeneration == expectedDownload
        }
        while current(), phase == .ready || phase == .ended {
            guard buffer.ahead(of: playhead) < configuration.forwardBufferDuration, let sequence = buffer.nextSequence else {
                if !(await idle()) { return }
                continue
            }
            if let first = timeline.first, sequence < first.sequence {
                // The live window slid past the download position: catch up with it.
                buffer.nextSequence = first.sequence
                if buffer.isEmpty, playhead < first.start { playhead = first.start }
                continue
            }
            guard let segment = timeline.segment(sequence: sequence) else {
                if timeline.isFinished {
                    buffer.isComplete = true
                    return
                }
                if !(await idle()) { return }
                continue
            }
            do {
                let failed = variantsThatFailed(sequence: sequence)
                guard let variantIndex = try await chooseVariant(excluding: failed), current() else { return }
                guard let location = timeline.location(sequence: sequence, variant: variantIndex) else {
                    do {
                        try await refreshVariant(variantIndex, policy: retryPolicy(for: variantIndex))
                    } catch let error as EngineError {
                        guard current() else { return }
                        guard failOverPlaylist(from: variantIndex, error: error) != nil else { throw error }
                        continue
                    }
                    if timeline.location(sequence: sequence, variant: variantIndex) == nil, !(await idle()) { return }
                    continue
                }
                if segment.isGap {
                    segmentFailures.insertGap(segment.range)
                } else {
                    do {
                        let policy = retryPolicy(for: variantIndex, sequence: sequence)
                        try await fetchDependencies(of: location, variant: variantIndex, policy: policy)
                        guard current() else { return }
                        let response = try await fetch(location.resource, kind: .segment, variant: variantIndex,
                                                       policy: policy)
                        guard current() else { return }
                        throughput.add(bytes: response.body.count, duration: response.timing.duration)
                        selector.observe(estimate: throughput.estimate, current: variantIndex,
                                         variants: candidateVariants())
                        segmentFailures.segmentLoaded()
                    } catch let error as EngineError {
                        guard current() else { return }
                        if noteSegmentFailure(error, segment: segment, variant: variantIndex) { continue }
                        try skipAsGap(segment, variant: variantIndex, error: error)
                        continue
                    }
                }
                segmentFailures.segmentBuffered()
                append(segment, variant: variantIndex)
            } catch let error as EngineError {
                guard current() else { return }
                fail(error)
                return
            } catch {
                return
            }
        }
    }

    /// Fetches the initialization section and the key a segment needs, when they differ from the last ones
    /// fetched (a real client needs both before the segment; this one has no decoder but makes the same requests).
    private func fetchDependencies(of location: SegmentLocation, variant: Int, policy: RetryPolicy) async throws {
        if let section = location.initializationSection, section != lastInitializationSection {
            _ = try await fetch(section, kind: .initializationSection, variant: variant, policy: policy)
            lastInitializationSection = section
        }
        if let key = location.key, key != lastKey {
            _ = try await fetch(ResourceLocation(url: key), kind: .key, variant: variant, policy: policy)
            lastKey = key
        }
    }

    /// Sleeps one tick; false when cancelled.
    private func idle() async -> Bool {
        do {
            try await stopwatch.sleep(for: configuration.tickInterval)
            return true
        } catch {
            return false
        }
    }

    func append(_ segment: TimelineSegment, variant: Int) {
        buffer.append(segment, variant: variant, switchReason: pendingSwitchReason,
                      isLast: timeline.isFinished && segment.sequence == timeline.last?.sequence)
        pendingSwitchReason = nil
        segmentBuffered()
    }

    /// The variant for the next segment, among those that did not fail it; loads its playlist first when
    /// switching (and fails over when that playlist cannot be had).
    private func chooseVariant(excluding failed: Set<Int>) async throws -> Int? {
        while true {
            let ahead = buffer.ahead(of: playhead)
            let candidates = candidateVariants(excluding: failed)
            guard let chosen = selector.choose(current: downloadVariant, variants: candidates,
                                               estimate: throughput.estimate, bufferedAhead: ahead)
            else { return nil }
            guard chosen != downloadVariant else { return chosen }
            let previous = downloadVariant.flatMap(variant(at:))
            let reason: VariantSwitchReason
            if let forced = pendingSwitchReason, forced == .limits || forced == .failover || forced == .contentSteering {
                reason = forced
            } else if let previous, let next = variant(at: chosen) {
                reason = next.bandwidth > previous.bandwidth ? .throughputUp : .throughputDown
            } else {
                reason = .initial
            }
            if streamType != .onDemand || !timeline.hasPlaylist(variant: chosen) {
                do {
                    try await refreshVariant(chosen, policy: retryPolicy(for: chosen))
                } catch let error as EngineError {
                    guard failOverPlaylist(from: chosen, error: error) != nil else { throw error }
                    continue
                }
            }
            downloadVariant = chosen
            pendingSwitchReason = reason
            selector.resetHeadroom()  // a new streak for the new variant
            return chosen
        }
    }
}
