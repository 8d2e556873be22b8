import Foundation
import PlaytraceCore
import PlaytraceDASH
import PlaytraceNetwork
import PlaytracePlayer

extension HeadlessEngine {
    /// Fills the forward buffer segment by segment, choosing the variant of each from the throughput estimate.
    /// What to do next is decided synchronously and out of line, so that the frames this task keeps for as long as
    /// it runs hold only what crosses a wait.
    func downloadLoop(generation expected: Int, downloadGeneration expectedDownload: Int) async {
        func current() -> Bool {
            !Task.isCancelled && generation == expected && downloadGeneration == expectedDownload
        }
        while current(), phase == .ready || phase == .ended {
            switch nextDownload() {
            case .wait:
                if !(await idle()) { return }
            case .again:
                continue
            case .finished:
                return
            case .segment(let segment):
                do {
                    guard try await download(segment, isCurrent: current) else { return }
                } catch let error as EngineError {
                    guard current() else { return }
                    fail(error)
                    return
                } catch {
                    return
                }
            }
        }
    }

    /// What the download loop does next.
    private enum DownloadStep {
        /// Nothing to download now (the buffer is full, or a live playlist does not have the next segment yet).
        case wait
        /// The download position moved: decide again at once.
        case again
        /// Every segment is buffered.
        case finished
        case segment(TimelineSegment)
    }

    @inline(never)
    private func nextDownload() -> DownloadStep {
        guard buffer.ahead(of: playhead) < configuration.forwardBufferDuration, let sequence = buffer.nextSequence else {
            return .wait
        }
        if let first = timeline.first, sequence < first.sequence {
            // The live window slid past the download position: catch up with it.
            buffer.nextSequence = first.sequence
            if buffer.isEmpty, playhead < first.start { playhead = first.start }
            return .again
        }
        guard let segment = timeline.segment(sequence: sequence) else {
            if timeline.isFinished {
                buffer.isComplete = true
                return .finished
            }
            return .wait
        }
        return .segment(segment)
    }

    /// Downloads a segment and buffers it: its variant chosen (its playlist loaded when it is not yet), its
    /// dependencies first; a failure fails over, retries or skips it as a gap. False when the loop must end (a new
    /// load, seek or switch took over).
    private func download(_ segment: TimelineSegment, isCurrent current: () -> Bool) async throws -> Bool {
        let sequence = segment.sequence
        let failed = variantsThatFailed(sequence: sequence)
        guard let variantIndex = try await chooseVariant(excluding: failed), current() else { return false }
        guard let location = timeline.location(sequence: sequence, variant: variantIndex) else {
            do {
                try await refreshVariant(variantIndex, policy: retryPolicy(for: variantIndex))
            } catch let error as EngineError {
                guard current() else { return false }
                guard failOverPlaylist(from: variantIndex, error: error) != nil else { throw error }
                return true
            }
            if timeline.location(sequence: sequence, variant: variantIndex) == nil, !(await idle()) { return false }
            return true
        }
        if segment.isGap {
            segmentFailures.insertGap(segment.range)
        } else {
            do {
                let policy = retryPolicy(for: variantIndex, sequence: sequence)
                try await fetchDependencies(of: location, variant: variantIndex, policy: policy)
                guard current() else { return false }
                let response = try await fetch(location.resource, kind: .segment, variant: variantIndex, policy: policy)
                guard current() else { return false }
                segmentLoaded(response, variant: variantIndex)
                // The producer's clock (`prft`), which the snapshot gives the ad tracking.
                if let dash, let date = segment.date { _ = dash.noteProducerTime(inSegment: response.body, segmentDate: date) }
                if dash?.playlists.readsInbandEvents == true {
                    await noteInbandEvents(in: response.body, segment: segment, variant: variantIndex)
                    guard current() else { return false }
                }
            } catch let error as EngineError {
                guard current() else { return false }
                if noteSegmentFailure(error, segment: segment, variant: variantIndex) { return true }
                try skipAsGap(segment, variant: variantIndex, error: error)
                return true
            }
        }
        segmentFailures.segmentBuffered()
        append(segment, variant: variantIndex)
        return true
    }

    /// A segment arrived: the throughput estimate and the variant selector learn from it.
    @inline(never)
    private func segmentLoaded(_ response: HTTPResponse, variant: Int) {
        throughput.add(bytes: response.body.count, duration: response.timing.duration)
        selector.observe(estimate: throughput.estimate, current: variant, variants: candidateVariants())
        segmentFailures.segmentLoaded()
    }

    /// Fetches the initialization section and the key a segment needs, when they differ from the last ones
    /// fetched (a real client needs both before the segment; this one has no decoder but makes the same requests).
    private func fetchDependencies(of location: SegmentLocation, variant: Int, policy: RetryPolicy) async throws {
        if let section = location.initializationSection, section != lastInitializationSection {
            let response = try await fetch(section, kind: .initializationSection, variant: variant, policy: policy)
            // A DASH track's timescale, which its segments' `prft` times count in.
            if let dash { dash.trackTimescale = InitializationSegment.trackTimescale(response.body) }
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

    @inline(never)
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
