import Foundation
import PlaytraceCore

extension Player {
    /// Makes an item current with a new playback session (the preloaded one when it is for this item): ends the
    /// current session (its trackers are disabled), then enables the new item's trackers.
    func startSession(for item: PlayerItem) {
        let hadSession = session != nil
        hasPlayedPlaylist = false
        endCurrentSession()
        queue.setCurrent(item)
        let session: ItemSession
        if let preloaded = preloadedSession, preloaded.item === item {
            session = preloaded
            preloadedSession = nil
        } else {
            preloadedSession?.close()
            preloadedSession = nil
            // An item whose asset failed earlier gets another chance (its preloaded failure is kept as is).
            item.resetFailedLoad()
            session = makeSession(for: item)
        }
        self.session = session
        session.becameCurrentAt = stopwatch.elapsed
        session.refreshPeriodically(every: configuration.refreshInterval, stopwatch: stopwatch) { [weak self] session in
            guard let self, session === self.session else { return }
            self.recordMetricsSample(of: session)
            self.applyPlaybackSpeed()
            self.publish()
            self.notifyProperties()
        }
        error = nil
        if hadSession { record(.itemTransition, in: session) }
        beginTracking(of: session)
        recordTimings(of: session)
        publishMetricEvents()
        if let failure = session.failure {
            sessionDidFail(session, error: failure)
            return
        }
        if wantsToPlay, session.engineLoadedAt != nil { session.send { await $0.play() } }
        applyPlaybackSpeed()
        publish()
        preloadNextItem()
    }

    /// Ends the current session: disables its trackers and stops its engine.
    func endCurrentSession() {
        guard let session else { return }
        endTracking(of: session)
        cancelSeeks()
        session.close()
        self.session = nil
    }

    /// Loads the item that plays next, so that the transition to it is quick; nothing while no item is current
    /// (`currentItem = nil`, the end of the playlist), as Pillarbox leaves nothing loaded then.
    func preloadNextItem() {
        let next = configuration.preloadsNextItem && repeatMode != .one && queue.currentItem != nil
            ? queue.nextItem(repeatMode: repeatMode) : nil
        guard let next, next !== session?.item else {
            preloadedSession?.close()
            preloadedSession = nil
            return
        }
        guard preloadedSession?.item !== next else { return }
        preloadedSession?.close()
        preloadedSession = makeSession(for: next)
    }

    /// Creates a session: starts loading the item's asset, then its source in a new engine.
    private func makeSession(for item: PlayerItem) -> ItemSession {
        let session = ItemSession(item: item, engine: makeEngine(), createdAt: stopwatch.elapsed)
        item.onMetadataChange = { [weak self] item in self?.metadataDidChange(of: item) }
        session.observeEvents { [weak self] session, event in await self?.handle(event, in: session) }
        let volume = self.volume
        let isMuted = self.isMuted
        let limits = variantLimits
        session.send { await $0.setVolume(volume, isMuted: isMuted) }
        if limits != .none { session.send { await $0.setVariantLimits(limits) } }
        item.load(stopwatch: stopwatch)
        Task { @MainActor [weak self, weak session, item] in
            guard let asset = await item.loadedAsset(), let self, let session, !session.isClosed else { return }
            self.assetDidLoad(asset, in: session)
        }
        return session
    }

    private func assetDidLoad(_ asset: LoadedAsset, in session: ItemSession) {
        session.asset = asset
        switch asset.resource {
        case .url(let url):
            let blocked = session.item.metadata.blockedRanges
            // A resume position given for the item wins over its own, once.
            let start = resumePositions.removeValue(forKey: session.item.id)?.time ?? asset.startPosition
            let source = EngineSource(url: url, startPosition: start, skippedRanges: blocked.rangeSet)
            session.send { await $0.load(source) }
            if session === self.session {
                recordTimings(of: session)
                if wantsToPlay { session.send { await $0.play() } }
                let rate = effectivePlaybackSpeed
                if rate != 1 { session.send { await $0.setRate(rate) } }
                publish()
            }
        case .unavailable(let error):
            let failure = EngineError(kind: .asset, message: String(describing: error), isFatal: true)
            session.failure = error
            session.collector.record(.failure(failure), at: session.sessionTime(stopwatch), playhead: .zero)
            if session === self.session {
                recordTimings(of: session)
                sessionDidFail(session, error: error)
            }
        }
    }

    /// Handles an engine event of a session (current or preloaded), in order.
    func handle(_ event: EngineEvent, in session: ItemSession) async {
        // Progress reports come on every tick of playback: they go straight to the trackers that asked for them,
        // without refreshing the snapshot (the periodic refresh and the other events keep it current).
        if case .progressed(let progress) = event {
            notifyProgress(progress, of: session)
            return
        }
        await session.refreshSnapshot(stopwatch: stopwatch)
        handleRefreshed(event, in: session)
    }

    /// The rest of ``handle(_:in:)`` once the snapshot is current: synchronous, and kept out of line so that its
    /// locals stay on the thread's stack instead of the frame that the event loop of every session holds.
    @inline(never)
    private func handleRefreshed(_ event: EngineEvent, in session: ItemSession) {
        guard !session.isClosed else { return }
        applyMediaSelection(in: session)
        let isCurrent = session === self.session
        let metricEvent = session.collector.record(event, at: session.sessionTime(stopwatch),
                                                   playhead: session.snapshot.playhead)
        if case .loaded = event {
            session.engineLoadedAt = stopwatch.elapsed
            if isCurrent, wantsToPlay { session.send { await $0.play() } }
        }
        guard isCurrent else { return }
        switch event {
        case .loaded:
            recordTimings(of: session)
            flushPendingSeekAfterLoad()
        case .firstFrame:
            consecutiveFailures.removeAll()
        case .seekEnded(_, let completed):
            seekDidEnd(completed: completed)
        case .error(let error) where error.isFatal:
            session.failure = error
            if metricEvent != nil { notifyMetricEvents(of: session) }
            sessionDidFail(session, error: error)
            return
        case .ended:
            publish()
            notifyProperties()
            itemDidEnd(session)
            return
        default:
            break
        }
        if metricEvent != nil { notifyMetricEvents(of: session) }
        applyPlaybackSpeed()
        publish()
        notifyProperties()
    }

    /// The current item played to its end.
    private func itemDidEnd(_ session: ItemSession) {
        cancelSeeks()
        if repeatMode == .one {
            startSession(for: session.item)
            return
        }
        if actionAtItemEnd == .advance, let next = queue.nextItem(repeatMode: repeatMode) {
            startSession(for: next)
            return
        }
        wantsToPlay = false
        guard actionAtItemEnd == .advance else {
            // The item stays current, ended: replay() plays it again.
            publish()
            return
        }
        // The end of the playlist (Pillarbox): no current item, its trackers disabled now (a telemetry or ad session
        // hears that playback ended), empty metadata; replay() plays the first item again.
        endCurrentSession()
        queue.setCurrent(nil)
        hasPlayedPlaylist = true
        preloadNextItem()
        publish()
        publishMetricEvents()
    }

    /// The current item failed: its error is published; the player moves on when configured to and the next item
    /// has failed since something last played (which stops a list of failing items from cycling forever).
    func sessionDidFail(_ session: ItemSession, error: any Error) {
        session.item.error = error
        self.error = error
        consecutiveFailures.append(ObjectIdentifier(session.item))
        notifyMetricEvents(of: session)
        cancelSeeks()
        if configuration.advancesAfterFailure, let next = queue.nextItem(repeatMode: repeatMode == .one ? .off : repeatMode),
           !consecutiveFailures.contains(ObjectIdentifier(next)) {
            startSession(for: next)
            return
        }
        publish()
        notifyProperties()
    }

    /// Records a metric event the player observes itself and tells the trackers.
    func record(_ kind: MetricEvent.Kind, in session: ItemSession) {
        session.collector.record(kind, at: session.sessionTime(stopwatch), playhead: session.snapshot.playhead)
    }

    /// Records metadata and asset timing once what they measure is known.
    func recordTimings(of session: ItemSession) {
        guard let current = session.becameCurrentAt, let asset = session.asset else { return }
        var recorded = false
        if !session.hasRecordedMetadataTiming {
            session.hasRecordedMetadataTiming = true
            record(.metadata(experience: max(.zero, asset.finishedAt - current), service: asset.serviceDuration),
                   in: session)
            recorded = true
        }
        if !session.hasRecordedAssetTiming, let loaded = session.engineLoadedAt {
            session.hasRecordedAssetTiming = true
            record(.asset(experience: max(.zero, loaded - max(current, asset.finishedAt))), in: session)
            recorded = true
        }
        if recorded, session === self.session { notifyMetricEvents(of: session) }
    }

    /// The metadata of an item changed: the player follows its current item's, and engines skip new blocked
    /// ranges.
    private func metadataDidChange(of item: PlayerItem) {
        for session in [session, preloadedSession].compactMap(\.self) where session.item === item {
            let ranges = item.metadata.blockedRanges.rangeSet
            session.send { await $0.setSkippedRanges(ranges) }
        }
        if item === session?.item { metadata = item.metadata }
    }

    /// Publishes the observable state derived from the current session.
    func publish() {
        guard let session else {
            setIfChanged(\.playbackState, hasPlayedPlaylist ? .ended : .idle)
            setIfChanged(\.isBuffering, false)
            setIfChanged(\.streamType, .unknown)
            publishSnapshot(EngineSnapshot(), mediaType: .unknown)
            if !(metadata == .empty) { metadata = .empty }
            updateSeekingState()
            return
        }
        let snapshot = session.snapshot
        publishSnapshot(snapshot, mediaType: session.mediaType)
        let state: PlaybackState
        if session.hasFailed {
            state = .idle
        } else if session.hasEnded {
            state = .ended
        } else {
            state = wantsToPlay ? .playing : .paused
        }
        setIfChanged(\.playbackState, state)
        let waiting = !session.hasFailed && !session.hasEnded
            && (session.asset == nil || session.engineLoadedAt == nil || snapshot.status == .loading
                || snapshot.status == .stalled)
        setIfChanged(\.isBuffering, waiting)
        setIfChanged(\.streamType, snapshot.streamType)
        if !(metadata == session.item.metadata) { metadata = session.item.metadata }
        updateSeekingState()
    }

    /// Publishes an engine snapshot, and each property split out of it only when its value changed (so that a view
    /// reading one is not refreshed at every engine event).
    private func publishSnapshot(_ snapshot: EngineSnapshot, mediaType: MediaType) {
        setIfChanged(\.engineSnapshot, snapshot)
        setIfChanged(\.seekableTimeRange, snapshot.seekableRange)
        // The buffered range's start is the playhead: it moves with the end, or when the playhead leaves the range
        // (a seek), not at every tick.
        let loaded = snapshot.loadedRange
        if loaded.end != loadedTimeRange.end || loaded.start < loadedTimeRange.start || loaded.start > loadedTimeRange.end {
            loadedTimeRange = loaded
        }
        let seekable = snapshot.seekableRange
        let buffer = seekable.duration.seconds > 0
            ? min(max((snapshot.loadedRange.end - seekable.start).seconds / seekable.duration.seconds, 0), 1) : 0
        setIfChanged(\.buffer, buffer)
        setIfChanged(\.currentInterstitial, snapshot.interstitial)
        setIfChanged(\.mediaType, mediaType)
        setIfChanged(\.renditions, Renditions(snapshot))
    }

    private func setIfChanged<Value: Equatable>(_ keyPath: ReferenceWritableKeyPath<Player, Value>, _ value: Value) {
        if self[keyPath: keyPath] != value { self[keyPath: keyPath] = value }
    }
}
