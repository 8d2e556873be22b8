public import Foundation
public import PlaytracePlayer

extension AdBeaconingSession {
    /// Sets the ad session up for a media URL with a provider, then has it deliver metadata until ``stop()``.
    /// Returns once the first metadata request was answered (or failed), so that playback starts with the breaks
    /// known; `nil` when the session could not be set up (every failed step is in the log and ``latestError``).
    /// Beacons an earlier run of the same session handed over are read back from the outbox (``resume(_:)``).
    @discardableResult
    public func start(mediaUrl: URL, provider: any AdMetadataProvider) async -> SessionInfo? {
        stop()
        self.mediaUrl = mediaUrl
        self.provider = provider
        let (info, failures) = await provider.setUp(mediaUrl: mediaUrl, isInitRequest: isInitRequest, now: wallClock.now)
        for failure in failures { log("ad session set-up, \(failure)", isError: true) }
        guard let info else { return nil }
        log("ad session set up by \(info.obtainedBy): playlist \(info.manifestUrl.absoluteString)", isError: false)
        resume(info)
        let attemptsBefore = metadataAttempts
        metadataTask = Task { [weak self] in
            guard let self else { return }
            await provider.deliverMetadata(of: info, to: self)
            self.resumeAttemptWaiters()
        }
        if metadataAttempts == attemptsBefore, metadataTask != nil {
            await withCheckedContinuation { attemptWaiters.append($0) }
        }
        return info
    }

    /// Stops fetching metadata. The breaks, their states and what was fired stay (the reference clears them):
    /// beacons already handed over are still delivered.
    public func stop() {
        metadataTask?.cancel()
        metadataTask = nil
        resumeAttemptWaiters()
        let waiters = streamTypeWaiters
        streamTypeWaiters.removeAll()
        for waiter in waiters { waiter.resume(returning: playerObserver.streamType) }
    }

    /// Takes the player's properties (from ``AdTracker``).
    public func updatePlayer(_ properties: TrackerProperties) {
        let observer = AdPlayerObserver(properties, previous: playerObserver)
        if observer != playerObserver { playerObserver = observer }
        interstitialSchedule = properties.interstitials
        takeInbandSignaling(properties.adBreaks)
        // The interstitial ended: its break ends where it stopped, and the primary's timeline applies again.
        if properties.interstitial == nil, scheduler.scope != nil { leaveInterstitial() }
        guard observer.streamType != .unknown, !streamTypeWaiters.isEmpty else { return }
        let waiters = streamTypeWaiters
        streamTypeWaiters.removeAll()
        for waiter in waiters { waiter.resume(returning: observer.streamType) }
    }

    /// Reads, through the provider, the ads of each break that carries its signaling in the media (an SVTA2053
    /// `emsg`), once per break: they are added as breaks no metadata lists (``addPods(_:)``); what could not be read
    /// is said.
    func takeInbandSignaling(_ breaks: [SignalledAdBreak]) {
        guard let provider, breaks.contains(where: { $0.creativeSignaling != nil }) else { return }
        inbandBreaksRead.formIntersection(breaks.map(\.id))
        for adBreak in breaks where adBreak.creativeSignaling != nil && !inbandBreaksRead.contains(adBreak.id) {
            guard let metadata = provider.inbandMetadata(of: adBreak) else { return }
            inbandBreaksRead.insert(adBreak.id)
            for problem in metadata.problems { log("in-band ad signaling: \(problem)", isError: true) }
            if !metadata.pods.isEmpty { addPods(metadata.pods) }
        }
    }

    /// The stream's type once the player knows it (at once when it does; ``stop()`` ends the wait).
    func knownStreamType() async -> StreamType {
        if playerObserver.streamType != .unknown || metadataTask == nil { return playerObserver.streamType }
        return await withCheckedContinuation { streamTypeWaiters.append($0) }
    }

    /// A metadata request was answered or failed.
    func metadataAttemptFinished() {
        metadataAttempts += 1
        resumeAttemptWaiters()
    }

    private func resumeAttemptWaiters() {
        let waiters = attemptWaiters
        attemptWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }
}
