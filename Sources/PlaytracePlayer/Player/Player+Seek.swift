public import Foundation
public import PlaytraceCore

extension Player {
    /// Seeks to a position, clamped to the seekable range and moved out of blocked ranges (forward seeks land at
    /// a blocked range's end, backward ones just before its start). The position's tolerances reach the engine:
    /// ``SeekPosition/near(_:)`` lets it land on the nearest segment boundary (the fastest seek).
    ///
    /// With smooth seeking (the default), a seek asked for while another one is under way only replaces the
    /// target that waits for it: dragging a slider sends the engine the first and the last positions, not every
    /// one in between. A waiting seek that a smooth seek replaces completes with `true` (its intent lives on in the
    /// one replacing it); one that a non-smooth seek replaces completes with `false` (Pillarbox's rules). On a
    /// player without an item, a seek completes with `true` at once.
    /// - Parameters:
    ///   - position: where to seek, with its tolerances (``SeekPosition/at(_:)`` for an exact position).
    ///   - smooth: whether a seek asked for while another one is under way replaces the one waiting for it.
    ///   - completion: called with `true` when the seek completed (or was taken over by a smooth one), `false`
    ///     when it was interrupted or could not be made.
    public func seek(_ position: SeekPosition, smooth: Bool = true,
                     completion: @escaping @MainActor (Bool) -> Void = { _ in }) {
        guard let session else {
            completion(true)
            return
        }
        guard !session.hasFailed, session.asset?.isPlayable != false else {
            completion(false)
            return
        }
        if session.engineLoadedAt == nil || (smooth && !seeksInFlight.isEmpty) {
            pendingSeek?.completion(smooth)
            pendingSeek = (position, completion)
        } else {
            pendingSeek?.completion(false)
            pendingSeek = nil
            send(position, completion: completion, in: session)
        }
        updateSeekingState()
        notifyProperties()
    }

    /// Seeks to the program-date-time `date`, for streams that have one.
    /// - Parameters:
    ///   - date: the date to reach.
    ///   - completion: called with the seek's outcome (`false` when the stream has no dates).
    public func seek(to date: Date, completion: @escaping @MainActor (Bool) -> Void = { _ in }) {
        guard session != nil else {
            completion(true)
            return
        }
        guard let current = self.date else {
            completion(false)
            return
        }
        seek(.at(time + (StreamDate(date) - current)), completion: completion)
    }

    /// Seeks to the start of a chapter.
    /// - Parameters:
    ///   - chapter: the chapter.
    ///   - completion: called with the seek's outcome.
    public func seek(to chapter: Chapter, completion: @escaping @MainActor (Bool) -> Void = { _ in }) {
        seek(.at(chapter.timeRange.start), completion: completion)
    }

    /// Whether `time` lies in the seekable range (which must not be empty).
    /// - Parameter time: a position on the item's timeline.
    public func canSeek(to time: MediaTime) -> Bool {
        let seekable = seekableTimeRange
        return seekable.duration > .zero && seekable.start <= time && time <= seekable.end
    }

    /// Whether ``skipForward(completion:)`` goes somewhere: always for on-demand content with a seekable range;
    /// for live and DVR streams, when the skip's target is still in the seekable range.
    public func canSkipForward() -> Bool {
        guard seekableTimeRange.duration > .zero else { return false }
        guard streamType == .live || streamType == .dvr else { return true }
        return canSeek(to: skipBase + MediaTime(configuration.forwardSkipInterval))
    }

    /// Whether ``skipBackward(completion:)`` goes somewhere: whenever the seekable range is not empty (at its
    /// start too, where the skip completes without moving).
    public func canSkipBackward() -> Bool {
        seekableTimeRange.duration > .zero
    }

    /// Whether a skip goes somewhere (``canSkipForward()`` or ``canSkipBackward()``).
    /// - Parameter skip: the direction.
    public func canSkip(_ skip: Skip) -> Bool {
        switch skip {
        case .forward: canSkipForward()
        case .backward: canSkipBackward()
        }
    }

    /// Skips in a direction (``skipForward(completion:)`` or ``skipBackward(completion:)``).
    /// - Parameters:
    ///   - skip: the direction.
    ///   - completion: called with the seek's outcome.
    public func skip(_ skip: Skip, completion: @escaping @MainActor (Bool) -> Void = { _ in }) {
        switch skip {
        case .forward: skipForward(completion: completion)
        case .backward: skipBackward(completion: completion)
        }
    }

    /// Goes forward by ``Configuration/forwardSkipInterval``, counted from the target of a seek under way (skips add
    /// up). Skips are not smooth: each one goes to the engine at once. Within 1 s of the end it does nothing and
    /// completes with `true`.
    /// - Parameter completion: called with the seek's outcome.
    public func skipForward(completion: @escaping @MainActor (Bool) -> Void = { _ in }) {
        let current = skipBase
        guard current < seekableTimeRange.end - MediaTime(seconds: 1) else {
            completion(true)
            return
        }
        seek(.to(current + MediaTime(configuration.forwardSkipInterval), toleranceBefore: .zero,
                 toleranceAfter: MediaTime(seconds: .infinity)),
             smooth: false, completion: completion)
    }

    /// Goes back by ``Configuration/backwardSkipInterval``, counted from the target of a seek under way. Not
    /// smooth.
    /// - Parameter completion: called with the seek's outcome.
    public func skipBackward(completion: @escaping @MainActor (Bool) -> Void = { _ in }) {
        seek(.to(skipBase - MediaTime(configuration.backwardSkipInterval),
                 toleranceBefore: MediaTime(seconds: .infinity), toleranceAfter: .zero),
             smooth: false, completion: completion)
    }

    /// Whether ``skipToDefault(completion:)`` applies: always for on-demand and live streams; for DVR streams,
    /// when the playhead is more than a target duration behind the live edge.
    public func canSkipToDefault() -> Bool {
        switch streamType {
        case .onDemand, .live: return true
        case .dvr:
            guard let chunk = engineSnapshot.targetDuration else { return false }
            return time < seekableTimeRange.end - chunk
        case .unknown: return false
        }
    }

    /// Goes to the default position: the live edge of live and DVR streams, the start of on-demand content (past
    /// a blocked range there). Not smooth.
    /// - Parameter completion: called with the seek's outcome.
    public func skipToDefault(completion: @escaping @MainActor (Bool) -> Void = { _ in }) {
        switch streamType {
        case .dvr, .live: seek(.after(seekableTimeRange.end), smooth: false, completion: completion)
        case .onDemand, .unknown: seek(.at(startPosition), smooth: false, completion: completion)
        }
    }

    /// Where the current item starts: its beginning, or past a blocked range there.
    var startPosition: MediaTime {
        metadata.blockedRanges.startPosition(seekableTimeRange.start)
    }

    /// Successive skips add up: they count from the target of the seek under way.
    private var skipBase: MediaTime {
        pendingSeek?.position.time ?? seeksInFlight.last?.target ?? time
    }

    private func send(_ position: SeekPosition, completion: @escaping @MainActor (Bool) -> Void, in session: ItemSession) {
        let resolved = position.resolved(seekable: seekableTimeRange, blocked: metadata.blockedRanges, from: time)
        seeksInFlight.append((resolved.time, completion))
        session.send {
            await $0.seek(to: resolved.time, toleranceBefore: resolved.toleranceBefore, toleranceAfter: resolved.toleranceAfter)
        }
    }

    /// The engine finished the oldest seek in flight; the one that waited is sent.
    func seekDidEnd(completed: Bool) {
        guard !seeksInFlight.isEmpty else { return }
        let completion = seeksInFlight.removeFirst().completion
        completion(completed)
        if seeksInFlight.isEmpty, let pending = pendingSeek, let session {
            pendingSeek = nil
            send(pending.position, completion: pending.completion, in: session)
        }
        updateSeekingState()
    }

    /// Sends the seek asked for before the engine was ready.
    func flushPendingSeekAfterLoad() {
        guard seeksInFlight.isEmpty, let pending = pendingSeek, let session else { return }
        pendingSeek = nil
        send(pending.position, completion: pending.completion, in: session)
    }

    /// Completes every seek with `false` (the session they belong to ended).
    func cancelSeeks() {
        let completions = seeksInFlight.map(\.completion) + (pendingSeek.map { [$0.completion] } ?? [])
        seeksInFlight = []
        pendingSeek = nil
        for completion in completions { completion(false) }
        updateSeekingState()
    }

    func updateSeekingState() {
        let seeking = !seeksInFlight.isEmpty || pendingSeek != nil
        if seeking != isSeeking { isSeeking = seeking }
    }
}

extension Player {
    /// Makes `item` current at `position`, once, instead of where it would start (its asset's or configuration's
    /// position, or the default): a "continue watching" row (Pillarbox's `resume(_:in:)`). When the item is current
    /// and loaded already, it seeks there. An item not in the list is ignored. Blocked ranges still apply.
    ///
    /// ```swift
    /// player.resume(.at(MediaTime(seconds: savedSeconds)), in: item)   // item is current now, at that position
    /// ```
    public func resume(_ position: SeekPosition, in item: PlayerItem) {
        guard items.contains(where: { $0 === item }) else { return }
        if let session, session.item === item, session.asset != nil {
            seek(position)
            return
        }
        resumePositions[item.id] = position
        if let preloaded = preloadedSession, preloaded.item === item {
            // Preloaded at the position it had: loaded again, from this one.
            preloaded.close()
            preloadedSession = nil
        }
        if session?.item !== item { startSession(for: item) }
    }
}
