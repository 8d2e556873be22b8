public import PlaytraceCore
import PlaytracePlayer

extension HeadlessEngine {
    /// Advances the playhead every tick by the time elapsed on the clock times the rate; a tick is brought forward
    /// to the instant the playhead reaches a progress boundary.
    func playbackLoop(generation expected: Int) async {
        var last = stopwatch.elapsed
        while !Task.isCancelled, generation == expected {
            do { try await stopwatch.sleep(for: nextTickDelay()) } catch { return }
            // A loop replaced while its tick was on its way (``restartPlaybackLoop()``) must not move the playhead.
            guard generation == expected, !Task.isCancelled else { return }
            let now = stopwatch.elapsed
            tick(elapsed: now - last)
            last = now
        }
    }

    /// Starts the playback loop again from now: its next tick comes after the movement-start delay or the tick
    /// interval counted from now, not from a period that began while playback waited.
    func restartPlaybackLoop() {
        guard tasks.playback != nil else { return }
        tasks.playback?.cancel()
        let expected = generation
        tasks.playback = Task { await self.playbackLoop(generation: expected) }
    }

    /// Whether playback waits for data: its first frame, the end of a stall, or a seek's.
    private var waitsForData: Bool { (!firstFrameShown && wantsToPlay) || stalls.isStalled || seeking != nil }

    /// A segment was buffered: playback that waited for data goes on now if it can, rather than at the next tick, so
    /// that startup times, stalls and seeks are measured to the segment that ended them whatever the tick interval.
    func segmentBuffered() {
        guard phase == .ready, tasks.playback != nil, waitsForData else { return }
        tick(elapsed: .zero)
        if !waitsForData { restartPlaybackLoop() }
    }

    /// How soon the first movement after a stop (the first frame, the end of a stall or a seek) is reported, when
    /// progress is reported: a tracker sees playback enter an ad within this of it happening.
    static let movementStartDelay = Duration.microseconds(500)

    /// The tick interval, or less when the playhead, playing, reaches a progress boundary sooner (remembered in
    /// ``ProgressBoundaries/aimed`` for the tick) or has just begun to move.
    private func nextTickDelay() -> Duration {
        boundaries.aimed = nil
        let interval = configuration.tickInterval
        guard boundaries.reportsProgress, phase == .ready, firstFrameShown, wantsToPlay, seeking == nil, !stalls.isStalled
        else { return interval }
        if let active = playingInterstitial {
            // An interstitial plays at normal speed, on its own timeline and boundaries.
            guard active.assets != nil, active.buffered > active.assetElapsed || active.assetLoaded else { return interval }
            if !movedLastTick { return Self.movementStartDelay }
            guard let boundary = boundaries.next(inInterstitial: active.scheduled.event.id, after: active.position)
            else { return interval }
            let target = boundary + ProgressBoundaries.overshoot
            let delay = (target - active.position).seconds
            guard delay < interval.seconds else { return interval }
            boundaries.aimed = target
            return .seconds(max(delay, 0))
        }
        guard rate > 0 else { return interval }
        if !movedLastTick { return Self.movementStartDelay }
        guard let boundary = nextBoundary(after: playhead) else { return interval }
        let target = boundary + ProgressBoundaries.overshoot
        let delay = (target - playhead).seconds / rate
        guard delay < interval.seconds else { return interval }
        boundaries.aimed = target
        return .seconds(max(delay, 0))
    }

    /// The first progress boundary after a position on the primary.
    func nextBoundary(after position: MediaTime) -> MediaTime? {
        boundaries.next(after: position, date: boundaries.hasDates ? timeline.date(at: position) : nil)
    }

    /// What must be buffered to start, resume or complete a seek: the startup amount, or what is left.
    private func neededAhead() -> MediaTime {
        guard buffer.isComplete, let end = buffer.last?.end else { return configuration.startupBufferDuration }
        return min(configuration.startupBufferDuration, max(.zero, end - playhead))
    }

    func tick(elapsed: Duration) {
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
        let bufferedEnd = buffer.end(from: playhead)
        let ahead = bufferedEnd - playhead
        let ready = ahead >= neededAhead() && (ahead > .zero || buffer.isComplete)
        if seeking != nil {
            guard ready else { return }
            finishSeek(completed: true)
        }
        if !firstFrameShown {
            guard wantsToPlay, ready else { return }
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
        var move = MediaTime(elapsed) * rate
        // A tick timed to reach a boundary reaches it, whatever the rounding of the clock's durations.
        if let aimed = boundaries.aimed, playhead + move < aimed, aimed - (playhead + move) < ProgressBoundaries.overshoot {
            move = aimed - playhead
        }
        boundaries.aimed = nil
        // An interstitial the playhead reaches during this tick: play up to its start, then play it.
        if let interstitial = interstitial(from: playhead, to: playhead + move),
           interstitial.event.start - playhead <= ahead {
            advancePlayhead(to: interstitial.event.start)
            beginInterstitial(interstitial)
            return
        }
        preloadInterstitial(near: playhead)
        // A skipped range the playhead reaches during this tick: play up to its start, then jump over it.
        let skip = skippedRanges.ranges.first { $0.end > playhead && $0.start <= playhead + move }
        let step = skip.map { max(.zero, $0.start - playhead) } ?? move
        if step <= ahead, skip != nil || !buffer.isComplete || playhead + step < bufferedEnd {
            advancePlayhead(to: playhead + step)
            if let skip {
                jump(over: skip)
                return
            }
        } else if buffer.isComplete {
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

    private func advancePlayhead(to position: MediaTime) {
        if position > playhead {
            playedRanges.insert(MediaTimeRange(start: playhead, end: position))
            if boundaries.reportsProgress {
                // A movement that crosses a progress boundary before its end (a tick that came late) is reported in
                // parts that end at each boundary, each saying how long ago the playhead was there.
                var from = playhead
                while let boundary = nextBoundary(after: from),
                      boundary + ProgressBoundaries.overshoot < position - Self.timeTolerance {
                    let split = boundary + ProgressBoundaries.overshoot
                    reportProgress(from: from, to: split, lag: .seconds((position - split).seconds / max(rate, 1e-9)))
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

    /// Below this, two positions are the same one, whatever the rounding of the ticks.
    static let timeTolerance = MediaTime(seconds: 1e-9)

    private func reportProgress(from: MediaTime, to: MediaTime, lag: Duration) {
        emit(.progressed(PlaybackProgress(from: from, to: to,
                                          fromDate: timeline.date(at: from), toDate: timeline.date(at: to), rate: rate,
                                          lag: lag)))
    }

    /// Continues playback from the end of a skipped range; a range that reaches the end of an on-demand item ends
    /// it.
    private func jump(over range: MediaTimeRange) {
        emit(.rangeSkipped(range))
        let target = range.end
        if streamType == .onDemand, target >= timeline.range.end {
            playhead = timeline.range.end
            buffer.removeAll()
            reachedEnd()
            return
        }
        moveBuffer(to: target)
        if seeking == nil {
            updateCurrentVariant()
        } else {
            seeking = SeekState(target: target, isSkip: true)
            updateStatus()
        }
    }

    /// The primary resumes after an interstitial at `target`: from the buffer when it holds it, otherwise
    /// downloading from there.
    func resumePrimary(at target: MediaTime) {
        let end = streamType == .onDemand ? timeline.range.end : target
        moveBuffer(to: min(target, end))
    }

    /// Moves the playhead within the buffer when it holds `target`; otherwise flushes it and downloads from there
    /// (the engine is then seeking).
    private func moveBuffer(to target: MediaTime) {
        if buffer.holds(target) {
            playhead = target
            evictPlayed()
        } else {
            seeking = seeking ?? SeekState()
            tasks.download?.cancel()
            reposition(at: target)
            startDownloadLoop()
        }
    }

    private func evictPlayed() { buffer.evict(playedBefore: playhead) }

    private func updateCurrentVariant() {
        guard let segment = buffer.segment(at: playhead),
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
        emit(.stallBegan(at: playhead))
        updateStatus()
    }

    func endStall() {
        guard let duration = stalls.end(at: stopwatch.elapsed) else { return }
        emit(.stallEnded(after: duration))
    }

    private func finishSeek(completed: Bool) {
        guard let finished = seeking else { return }
        seeking = nil
        if !finished.isSkip {
            emit(.seekEnded(at: completed ? playhead : finished.target ?? playhead, completed: completed))
        }
        updateStatus()
    }

    public func setSkippedRanges(_ ranges: MediaTimeRangeSet) {
        skippedRanges = ranges
    }

    /// Seeks within tolerances: to the segment boundary nearest the target among those they allow (a segment starts
    /// with an independent frame, so a real client decodes nothing before it), else exactly to the target.
    public func seek(to position: MediaTime, toleranceBefore: MediaTime, toleranceAfter: MediaTime) {
        let target = seekableRange().clamp(position)
        guard toleranceBefore > .zero || toleranceAfter > .zero,
              let segment = timeline.segment(containing: target), segment.start <= target, target < segment.end
        else {
            seek(to: position)
            return
        }
        var allowed: [MediaTime] = []
        if target - segment.start <= toleranceBefore { allowed.append(segment.start) }
        if segment.end - target <= toleranceAfter, streamType != .onDemand || segment.end < seekableRange().end {
            allowed.append(segment.end)
        }
        let nearest = allowed.min { abs(($0 - target).seconds) < abs(($1 - target).seconds) } ?? target
        seek(to: nearest)
    }

    /// How far before the end of an on-demand item a seek to its end lands: a frame is left to show.
    static let lastSeekableMargin = MediaTime(seconds: 0.001)

    /// Seeks the primary. While an interstitial plays, the seek skips it where the viewer may, and otherwise waits for
    /// its end. A forward seek past a `JUMP`-restricted interstitial not played yet goes to it first; the seek's
    /// target follows when it ends.
    public func seek(to position: MediaTime) {
        guard phase == .ready || phase == .ended, !timeline.segments.isEmpty else { return }
        let seekable = seekableRange()
        var target = unskipped(seekable.clamp(position))
        if streamType == .onDemand { target = min(target, max(seekable.start, seekable.end - Self.lastSeekableMargin)) }
        guard seekLeavesInterstitial(to: target) else { return }
        if let restricted = jumpRestrictedInterstitial(from: playhead, to: target) {
            interstitials.seekAfter = target
            target = restricted.event.start
        }
        rearmInterstitials(after: target)
        if let previous = seeking, !previous.isSkip, let previousTarget = previous.target {
            emit(.seekEnded(at: previousTarget, completed: false))
        }
        seeking = SeekState(target: target)
        discardPreload()
        emit(.seekBegan(target: target))
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
