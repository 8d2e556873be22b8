public import Foundation
import PlaytraceCore

extension Player {
    /// Seeks to a position, clamped to the seekable range and moved out of blocked ranges (forward seeks land at
    /// a blocked range's end, backward ones just before its start).
    ///
    /// With smooth seeking (the default), a seek asked for while another one is under way only replaces the
    /// target that waits for it: dragging a slider sends the engine the first and the last positions, not every
    /// one in between. A seek that is replaced before it is sent completes with `false`.
    /// - Parameters:
    ///   - position: where to seek, with its tolerances (``SeekPosition/at(_:)`` for an exact position).
    ///   - smooth: whether a seek asked for while another one is under way replaces the one waiting for it.
    ///   - completion: called with `true` when the seek completed, `false` when it was replaced or could not be
    ///     made.
    public func seek(_ position: SeekPosition, smooth: Bool = true,
                     completion: @escaping @MainActor (Bool) -> Void = { _ in }) {
        guard let session, !session.hasFailed, session.asset?.isPlayable != false else {
            completion(false)
            return
        }
        if session.engineLoadedAt == nil || (smooth && !seeksInFlight.isEmpty) {
            pendingSeek?.completion(false)
            pendingSeek = (position, completion)
        } else {
            send(position, completion: completion, in: session)
        }
        updateSeekingState()
        notifyProperties()
    }

    /// Seeks to the program-date-time `date`, for streams that have one.
    public func seek(to date: Date, completion: @escaping @MainActor (Bool) -> Void = { _ in }) {
        guard let current = self.date else {
            completion(false)
            return
        }
        seek(.at(time + (StreamDate(date) - current)), completion: completion)
    }

    /// Seeks to the start of a chapter.
    public func seek(to chapter: Chapter, completion: @escaping @MainActor (Bool) -> Void = { _ in }) {
        seek(.at(chapter.timeRange.start), completion: completion)
    }

    /// Whether ``skipForward(completion:)`` can go forward (not at the end, nor at the live edge).
    public func canSkipForward() -> Bool {
        guard streamType == .onDemand || streamType == .dvr else { return false }
        if streamType == .dvr, isAtLiveEdge { return false }
        return time < seekableTimeRange.end
    }

    /// Whether ``skipBackward(completion:)`` can go back.
    public func canSkipBackward() -> Bool {
        guard streamType == .onDemand || streamType == .dvr else { return false }
        return time > seekableTimeRange.start
    }

    /// Goes forward by ``Configuration/forwardSkipInterval``.
    public func skipForward(completion: @escaping @MainActor (Bool) -> Void = { _ in }) {
        guard canSkipForward() else {
            completion(false)
            return
        }
        seek(.at(skipBase + MediaTime(configuration.forwardSkipInterval)), completion: completion)
    }

    /// Goes back by ``Configuration/backwardSkipInterval``.
    public func skipBackward(completion: @escaping @MainActor (Bool) -> Void = { _ in }) {
        guard canSkipBackward() else {
            completion(false)
            return
        }
        seek(.at(skipBase - MediaTime(configuration.backwardSkipInterval)), completion: completion)
    }

    /// Whether ``skipToDefault(completion:)`` moves the playhead: away from the live edge of a DVR stream, or
    /// away from the start of on-demand content.
    public func canSkipToDefault() -> Bool {
        switch streamType {
        case .dvr: return !isAtLiveEdge
        case .onDemand: return time > startPosition
        case .live, .unknown: return false
        }
    }

    /// Goes to the default position: the live edge of a DVR stream, the start of on-demand content.
    public func skipToDefault(completion: @escaping @MainActor (Bool) -> Void = { _ in }) {
        switch streamType {
        case .dvr, .live: seek(.at(seekableTimeRange.end), completion: completion)
        case .onDemand: seek(.at(startPosition), completion: completion)
        case .unknown: completion(false)
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
        let target = position.resolved(seekable: seekableTimeRange, blocked: metadata.blockedRanges, from: time).time
        seeksInFlight.append((target, completion))
        session.send { await $0.seek(to: target) }
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
    /// Starts `item` at `position` the next time it plays, once, instead of where it would start (its asset's or
    /// configuration's position, or the default): a "continue watching" row (Pillarbox's `resume(_:in:)`). When the
    /// item is playing already, it seeks there now. Blocked ranges still apply.
    ///
    /// ```swift
    /// player.resume(.at(MediaTime(seconds: savedSeconds)), in: item)
    /// player.currentItem = item
    /// ```
    public func resume(_ position: SeekPosition, in item: PlayerItem) {
        if let session, session.item === item, session.asset != nil {
            seek(position)
            return
        }
        resumePositions[item.id] = position
        if let preloaded = preloadedSession, preloaded.item === item {
            // Preloaded at the position it had: loaded again, from this one, when it becomes current.
            preloaded.close()
            preloadedSession = nil
        }
    }
}
