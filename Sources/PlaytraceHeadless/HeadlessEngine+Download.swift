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
            let bufferedEnd = buffer.last?.end ?? playhead
            guard bufferedEnd - playhead < configuration.forwardBufferDuration, let sequence = nextSequence else {
                if !(await idle()) { return }
                continue
            }
            if let first = timeline.first, sequence < first.sequence {
                // The live window slid past the download position: catch up with it.
                nextSequence = first.sequence
                if buffer.isEmpty, playhead < first.start { playhead = first.start }
                continue
            }
            guard let segment = timeline.segment(sequence: sequence) else {
                if timeline.isFinished {
                    allDownloaded = true
                    return
                }
                if !(await idle()) { return }
                continue
            }
            do {
                guard let variantIndex = try await chooseVariant(), current() else { return }
                guard let location = timeline.location(sequence: sequence, variant: variantIndex) else {
                    try await refreshVariant(variantIndex)
                    if timeline.location(sequence: sequence, variant: variantIndex) == nil, !(await idle()) { return }
                    continue
                }
                if !segment.isGap {
                    try await fetchDependencies(of: location, variant: variantIndex)
                    guard current() else { return }
                    let response = try await fetch(location.resource, kind: .segment, variant: variantIndex)
                    guard current() else { return }
                    throughput.add(bytes: response.body.count, seconds: response.timing.duration.seconds)
                }
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
    private func fetchDependencies(of location: SegmentLocation, variant: Int) async throws {
        if let section = location.initializationSection, section != lastInitializationSection {
            _ = try await fetch(section, kind: .initializationSection, variant: variant)
            lastInitializationSection = section
        }
        if let key = location.key, key != lastKey {
            _ = try await fetch(ResourceLocation(url: key), kind: .key, variant: variant)
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

    private func append(_ segment: TimelineSegment, variant: Int) {
        let contiguousStart = buffer.last?.end ?? segment.start
        buffer.append(BufferedSegment(sequence: segment.sequence, start: max(segment.start, min(contiguousStart, segment.end)),
                                      end: segment.end, variant: variant, switchReason: pendingSwitchReason))
        pendingSwitchReason = nil
        nextSequence = segment.sequence + 1
        if timeline.isFinished, segment.sequence == timeline.last?.sequence { allDownloaded = true }
    }

    /// The variant for the next segment; loads its playlist first when switching.
    private func chooseVariant() async throws -> Int? {
        let ahead = (buffer.last?.end ?? playhead) - playhead
        guard let chosen = selector.choose(current: downloadVariant, variants: variants, limits: limits,
                                           estimate: throughput.estimate, bufferedAhead: ahead)
        else { return nil }
        guard chosen != downloadVariant else { return chosen }
        let previous = downloadVariant.flatMap(variant(at:))
        let reason: VariantSwitchReason
        if let forced = pendingSwitchReason, forced == .limits {
            reason = .limits
        } else if let previous, let next = variant(at: chosen) {
            reason = next.bandwidth > previous.bandwidth ? .throughputUp : .throughputDown
        } else {
            reason = .initial
        }
        if streamType != .onDemand || timeline.locations[chosen] == nil {
            try await refreshVariant(chosen)
        }
        downloadVariant = chosen
        pendingSwitchReason = reason
        return chosen
    }
}
