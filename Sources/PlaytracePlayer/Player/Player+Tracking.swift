extension Player {
    /// The session identifiers of the current item's trackers of a type, enabled or not, sorted (Pillarbox's
    /// rule: every adapter of the type counts).
    ///
    /// ```swift
    /// player.currentSessionIdentifiers(trackedBy: QoSTracker.self)   // ["4f1c…", "9a0b…"]
    /// ```
    /// - Parameter type: the tracker type.
    public func currentSessionIdentifiers<Tracker: PlayerItemTracker>(trackedBy type: Tracker.Type) -> [String] {
        guard let session else { return [] }
        return session.item.trackers.compactMap { box in
            (box.tracker as? Tracker)?.sessionIdentifier
        }.sorted()
    }

    /// The session identifiers of the current item's asynchronous trackers of a type, enabled or not, sorted.
    /// - Parameter type: the tracker type.
    public func currentSessionIdentifiers<Tracker: AsyncPlayerItemTracker>(trackedBy type: Tracker.Type) -> [String] {
        guard let session else { return [] }
        return session.item.trackers.compactMap { box in
            (box.tracker as? AsyncTrackerBridge<Tracker>)?.sessionIdentifier
        }.sorted()
    }

    func beginTracking(of session: ItemSession) {
        for box in session.item.trackers where box.behavior == .mandatory || isTrackingEnabled {
            box.enable(for: self)
        }
        if !session.collector.events.isEmpty { notifyMetricEvents(of: session) }
        updateProgressReporting(of: session)
    }

    /// Asks the session's engine for progress reports when one of its enabled trackers needs them, ending at
    /// their boundaries.
    func updateProgressReporting(of session: ItemSession) {
        let needed = session.item.trackers.contains { $0.needsProgress }
        let boundaries = progressBoundaries(of: session)
        session.send { engine in
            await engine.setReportsProgress(needed)
            await engine.setProgressBoundaries(boundaries)
        }
    }

    /// Hands the current item's trackers' progress boundaries to its engine again, and whether any of them observes
    /// progress now: a tracker whose ``PlayerItemTracker/progressBoundaries`` or
    /// ``PlayerItemTracker/observesProgress`` changed calls it.
    public func updateProgressBoundaries() {
        guard let session else { return }
        updateProgressReporting(of: session)
    }

    private func progressBoundaries(of session: ItemSession) -> [PlaybackBoundary] {
        session.item.trackers.flatMap(\.progressBoundaries)
    }

    /// Hands an engine's progress report to the current item's trackers.
    func notifyProgress(_ progress: PlaybackProgress, of session: ItemSession) {
        guard session === self.session else { return }
        for box in session.item.trackers { box.updateProgress(progress) }
    }

    func endTracking(of session: ItemSession) {
        let properties = self.properties
        for box in session.item.trackers { box.disable(with: properties) }
    }

    /// Sends the current properties to the current item's enabled trackers now. Benchmarks measure the cost of
    /// the fan-out with it; the player calls it itself whenever its state changes.
    @_spi(Benchmarking)
    public func notifyPropertiesNow() { notifyProperties() }

    /// Sends the current properties to the current item's enabled trackers.
    func notifyProperties() {
        guard let session, !session.item.trackers.isEmpty else { return }
        let properties = self.properties
        for box in session.item.trackers { box.updateProperties(properties) }
    }

    func notifyMetricEvents(of session: ItemSession) {
        guard session === self.session else { return }
        let events = session.collector.events
        for box in session.item.trackers { box.updateMetricEvents(events) }
        publishMetricEvents()
    }

    func trackingEnablementChanged() {
        guard let session else { return }
        let properties = self.properties
        for box in session.item.trackers where box.behavior == .optional {
            if isTrackingEnabled {
                box.enable(for: self)
                box.updateMetricEvents(session.collector.events)
            } else {
                box.disable(with: properties)
            }
        }
        updateProgressReporting(of: session)
    }
}
