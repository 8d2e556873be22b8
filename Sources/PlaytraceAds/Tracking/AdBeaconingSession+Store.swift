import PlaytraceNetwork

/// Writing fired beacons to the outbox (``BeaconStoreQueue``), and what an earlier run handed over already, or what
/// could not be stored, given its outcome.
extension AdBeaconingSession {
    /// Writes beacon URLs to the outbox after those fired before them, off the main actor.
    func store(_ beacons: [BeaconStoreQueue.Beacon]) {
        storeQueue.store(beacons) { [weak self] results in self?.stored(results) }
    }

    /// Gives the URLs that were not simply stored their outcome.
    func stored(_ results: [BeaconStoreQueue.Result]) {
        for result in results {
            book.update(result.beacon.deliveryKey, url: result.beacon.index) { $0.outcome = result.outcome }
            log(result.note, isError: result.isError)
            settle(result.beacon.deliveryKey)
        }
        if !results.isEmpty { resumeReportWaiters() }
    }

    /// Waits until the beacons fired so far are written to the outbox (before the outbox is drained at the end of
    /// a session, say).
    public func beaconsStored() async {
        await storeQueue.finished()
    }
}
