public import PlaytraceCore
import PlaytracePlayer

extension HeadlessEngine {
    /// Advances the playhead every tick by the time elapsed on the clock times the rate; a tick is brought forward
    /// to the instant the playhead reaches a progress boundary.
    func playbackLoop(generation expected: Int) async {
        var last = stopwatch.elapsed
        while !Task.isCancelled, generation == expected {
            do { try await stopwatch.sleep(for: nextTickDelay()) } catch { return }
            guard generation == expected else { return }
            let now = stopwatch.elapsed
            tick(elapsed: (now - last).seconds)
            last = now
        }
    }

    /// How far past a boundary a tick timed for it stops, so that the boundary is inside the movement reported
    /// whatever the rounding of the times (seconds).
    static let boundaryOvershoot = 1e-6

    /// How soon the first movement after a stop (the first frame, the end of a stall or a seek) is reported, when
    /// progress is reported: a tracker sees playback enter an ad within this of it happening.
    static let movementStartDelay = Duration.microseconds(500)

    /// The tick interval, or less when the playhead, playing, reaches a progress boundary sooner (remembered in
    /// ``aimedBoundary`` for the tick) or has just begun to move.
    private func nextTickDelay() -> Duration {
        aimedBoundary = nil
        let interval = configuration.tickInterval
        guard reportsProgress, phase == .ready, firstFrameShown, wantsToPlay, !isSeeking, !stalls.isStalled
        else { return interval }
        if let active = playingInterstitial {
            // An interstitial plays at normal speed, on its own timeline and boundaries.
            guard active.assets != nil, active.buffered > active.assetElapsed || active.assetLoaded else { return interval }
            if !movedLastTick { return Self.movementStartDelay }
            guard let sorted = interstitialBoundaryTimes[active.scheduled.event.id],
                  let index = Self.firstIndex(in: sorted, after: active.position) else { return interval }
            let target = sorted[index] + Self.boundaryOvershoot
            let delay = target - active.position
            guard delay < interval.seconds else { return interval }
            aimedBoundary = target
            return .seconds(max(delay, 0))
        }
        guard rate > 0 else { return interval }
        if !movedLastTick { return Self.movementStartDelay }
        guard let boundary = nextBoundary(after: playhead) else { return interval }
        let target = boundary + Self.boundaryOvershoot
        let delay = (target - playhead) / rate
        guard delay < interval.seconds else { return interval }
        aimedBoundary = target
        return .seconds(max(delay, 0))
    }

    /// The first progress boundary after a position: the next boundary time, or the position where the stream's
    /// dates, counted on from the position's date, reach the next boundary date.
    func nextBoundary(after position: Double) -> Double? {
        var next: Double?
        if let index = Self.firstIndex(in: boundaryTimes, after: position) { next = boundaryTimes[index] }
        if !boundaryDates.isEmpty, let date = timeline.date(at: position)?.secondsSince1970,
           let index = Self.firstIndex(in: boundaryDates, after: date) {
            let byDate = position + (boundaryDates[index] - date)
            next = min(next ?? byDate, byDate)
        }
        return next
    }

    /// The index of the first value greater than `value` in a sorted array.
    static func firstIndex(in sorted: [Double], after value: Double) -> Int? {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] <= value { low = middle + 1 } else { high = middle }
        }
        return low < sorted.count ? low : nil
    }

    /// Seconds that must be buffered to start, resume or complete a seek: the startup amount, or what is left.
    private func neededAhead() -> Double {
        guard allDownloaded, let end = buffer.last?.end else { return configuration.startupBufferDuration }
        return min(configuration.startupBufferDuration, max(0, end - playhead))
    }

    func tick(elapsed: Double) {
        let before = playhead
        let interstitialBefore = playingInterstitial.map { ($0.scheduled.event.id, $0.position) }
        defer {
            let interstitialMoved = interstitialBefore.map { before in
                playingInterstitial.map { $0.scheduled.event.id == before.0 && $0.position > before.1 } ?? false
            } ?? false
            // An interstitial that began in this tick has not moved yet: its first movement is reported soon.
            let began = playingInterstitial != nil && playingInterstitial?.scheduled.event.id != interstitialBefore?.0
            movedLastTick = (playhead > before || interstitialMoved) && !began
        }
        guard phase == .ready else { return }
        let bufferedEnd = buffer.last?.end ?? playhead
        let ahead = bufferedEnd - playhead
        let ready = ahead >= neededAhead() && (ahead > 0 || allDownloaded)
        if isSeeking {
            guard ready else { return }
            finishSeek(completed: true)
        }
        if !firstFrameShown {
            guard wantsToPlay, ready else { return }
            firstFrameShown = true
            let startup = stopwatch.elapsed - startupReference
            startupTime = startup
            updateCurrentVariant()
            emit(.firstFrame(startupTime: startup))
            updateStatus()
            // A pre-roll plays before the primary moves; an interstitial under way where playback starts is joined.
            if let preRoll = pendingInterstitial(.preRoll) {
                beginInterstitial(preRoll)
            } else if let (underWay, offset) = interstitialUnderWay(at: playhead) {
                joinInterstitial(underWay, at: offset)
            }
            return
        }
        // While an interstitial plays the primary waits: the interstitial's own data decides stalls.
        if playingInterstitial != nil {
            if wantsToPlay { advanceInterstitial(elapsed: elapsed) }
            return
        }
        if stalls.isStalled {
            guard ready else { return }
            endStall()
            updateStatus()
        }
        guard wantsToPlay else { return }
        var move = elapsed * rate
        // A tick timed to reach a boundary reaches it, whatever the rounding of the clock's durations.
        if let aimed = aimedBoundary, playhead + move < aimed, aimed - (playhead + move) < Self.boundaryOvershoot {
            move = aimed - playhead
        }
        aimedBoundary = nil
        // An interstitial the playhead reaches during this tick: play up to its start, then play it.
        if let interstitial = interstitial(from: playhead, to: playhead + move),
           interstitial.event.start.seconds - playhead <= ahead {
            advancePlayhead(to: interstitial.event.start.seconds)
            beginInterstitial(interstitial)
            return
        }
        preloadInterstitial(near: playhead)
        // A skipped range the playhead reaches during this tick: play up to its start, then jump over it.
        let skip = skippedRanges.ranges.first { $0.end.seconds > playhead && $0.start.seconds <= playhead + move }
        let step = skip.map { max(0, $0.start.seconds - playhead) } ?? move
        if step <= ahead, skip != nil || !allDownloaded || playhead + step < bufferedEnd {
            advancePlayhead(to: playhead + step)
            if let skip {
                jump(over: skip)
                return
            }
        } else if allDownloaded {
            advancePlayhead(to: bufferedEnd)
            evictPlayed()
            reachedEnd()
            return
        } else {
            advancePlayhead(to: bufferedEnd)
            beginStall()
        }
        evictPlayed()
        updateCurrentVariant()
    }

    private func advancePlayhead(to position: Double) {
        if position > playhead {
            playedRanges.insert(MediaTimeRange(start: MediaTime(seconds: playhead), end: MediaTime(seconds: position)))
            if reportsProgress {
                // A movement that crosses a progress boundary before its end (a tick that came late) is reported in
                // parts that end at each boundary, each saying how long ago the playhead was there.
                var from = playhead
                while let boundary = nextBoundary(after: from), boundary + Self.boundaryOvershoot < position - 1e-9 {
                    let split = boundary + Self.boundaryOvershoot
                    reportProgress(from: from, to: split, lag: .seconds((position - split) / max(rate, 1e-9)))
                    from = split
                }
                reportProgress(from: from, to: position, lag: .zero)
            }
        }
        playhead = position
    }

    /// The primary played to its end: a post-roll plays, then (or else) the item ends.
    func reachedEnd() {
        if let postRoll = pendingInterstitial(.postRoll) { return beginInterstitial(postRoll) }
        phase = .ended
        emit(.ended)
        updateStatus()
    }

    private func reportProgress(from: Double, to: Double, lag: Duration) {
        emit(.progressed(PlaybackProgress(from: MediaTime(seconds: from), to: MediaTime(seconds: to),
                                          fromDate: timeline.date(at: from), toDate: timeline.date(at: to), rate: rate,
                                          lag: lag)))
    }

    /// Continues playback from the end of a skipped range; a range that reaches the end of an on-demand item ends
    /// it.
    private func jump(over range: MediaTimeRange) {
        emit(.rangeSkipped(range))
        let target = range.end.seconds
        if streamType == .onDemand, target >= timeline.range.end.seconds {
            playhead = timeline.range.end.seconds
            buffer.removeAll()
            reachedEnd()
            return
        }
        moveBuffer(to: target)
        if !isSeeking {
            updateCurrentVariant()
        } else {
            seekIsSkip = true
            seekTarget = target
            updateStatus()
        }
    }

    /// The primary resumes after an interstitial at `target`: from the buffer when it holds it, otherwise
    /// downloading from there.
    func resumePrimary(at target: Double) {
        let end = streamType == .onDemand ? timeline.range.end.seconds : target
        moveBuffer(to: min(target, end))
    }

    /// Moves the playhead within the buffer when it holds `target`; otherwise flushes it and downloads from there
    /// (the engine is then seeking).
    private func moveBuffer(to target: Double) {
        if let first = buffer.first, let last = buffer.last, target >= first.start, target < last.end {
            playhead = target
            evictPlayed()
        } else {
            isSeeking = true
            downloadTask?.cancel()
            reposition(at: target)
            startDownloadLoop()
        }
    }

    private func evictPlayed() {
        while let first = buffer.first, first.end <= playhead, buffer.count > 1 || first.end < playhead {
            buffer.removeFirst()
        }
    }

    private func updateCurrentVariant() {
        guard let segment = buffer.first(where: { $0.start <= playhead && playhead < $0.end }) ?? buffer.first,
              segment.variant != currentVariant, let next = variant(at: segment.variant)
        else { return }
        let previous = currentVariant.flatMap(variant(at:))
        currentVariant = segment.variant
        if previous != nil { variantSwitchCount += 1 }
        let reason = previous == nil ? VariantSwitchReason.initial
            : (segment.switchReason ?? (next.bandwidth > previous!.bandwidth ? .throughputUp : .throughputDown))
        emit(.variantSwitched(from: previous, to: next, reason: reason))
    }

    func beginStall() {
        guard stalls.begin(at: stopwatch.elapsed) else { return }
        emit(.stallBegan(at: MediaTime(seconds: playhead)))
        updateStatus()
    }

    func endStall() {
        guard let duration = stalls.end(at: stopwatch.elapsed) else { return }
        emit(.stallEnded(after: duration))
    }

    private func finishSeek(completed: Bool) {
        isSeeking = false
        let target = seekTarget ?? playhead
        seekTarget = nil
        if seekIsSkip {
            seekIsSkip = false
        } else {
            emit(.seekEnded(at: MediaTime(seconds: completed ? playhead : target), completed: completed))
        }
        updateStatus()
    }

    public func setSkippedRanges(_ ranges: MediaTimeRangeSet) {
        skippedRanges = ranges
    }

    /// Seeks within tolerances: to the segment boundary nearest the target among those they allow (a segment starts
    /// with an independent frame, so a real client decodes nothing before it), else exactly to the target.
    public func seek(to position: MediaTime, toleranceBefore: MediaTime, toleranceAfter: MediaTime) {
        let target = seekableRange().clamp(position).seconds
        guard toleranceBefore > .zero || toleranceAfter > .zero,
              let segment = timeline.segment(containing: target), segment.start <= target, target < segment.end
        else {
            seek(to: position)
            return
        }
        var boundaries: [Double] = []
        if target - segment.start <= toleranceBefore.seconds { boundaries.append(segment.start) }
        if segment.end - target <= toleranceAfter.seconds, streamType != .onDemand || segment.end < seekableRange().end.seconds {
            boundaries.append(segment.end)
        }
        let nearest = boundaries.min { abs($0 - target) < abs($1 - target) } ?? target
        seek(to: MediaTime(seconds: nearest))
    }

    /// Seeks the primary. While an interstitial plays, the seek skips it where the viewer may, and otherwise waits for
    /// its end. A forward seek past a `JUMP`-restricted interstitial not played yet goes to it first; the seek's
    /// target follows when it ends.
    public func seek(to position: MediaTime) {
        guard phase == .ready || phase == .ended, !timeline.segments.isEmpty else { return }
        let seekable = seekableRange()
        var target = unskipped(seekable.clamp(position))
        if streamType == .onDemand { target = min(target, max(seekable.start.seconds, seekable.end.seconds - 0.001)) }
        guard seekLeavesInterstitial(to: target) else { return }
        if let restricted = jumpRestrictedInterstitial(from: playhead, to: target) {
            seekAfterInterstitial = target
            target = restricted.event.start.seconds
        }
        rearmInterstitials(after: target)
        if isSeeking, !seekIsSkip, let previous = seekTarget {
            emit(.seekEnded(at: MediaTime(seconds: previous), completed: false))
        }
        seekIsSkip = false
        isSeeking = true
        seekTarget = target
        discardPreload()
        emit(.seekBegan(target: MediaTime(seconds: target)))
        if phase == .ended { phase = .ready }
        if stalls.isStalled { endStall() }
        moveBuffer(to: target)
        updateStatus()
    }

    /// The status the state implies; emits it when it changed.
    func updateStatus() {
        let status: EngineStatus
        switch phase {
        case .idle: status = .idle
        case .loading: status = .loading
        case .failed: status = .failed
        case .ended: status = .ended
        case .ready:
            if !firstFrameShown {
                status = wantsToPlay ? .loading : .paused
            } else if !wantsToPlay {
                status = .paused
            } else if stalls.isStalled {
                status = .stalled
            } else {
                status = .playing
            }
        }
        guard status != lastStatus else { return }
        lastStatus = status
        emit(.statusChanged(status))
    }
}
