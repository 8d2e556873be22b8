import PlaytraceNetwork

/// Writing fired beacons to the outbox: off the main actor, each firing's after the one before, and what an earlier
/// run handed over already, or what could not be stored, given its outcome.
extension AdBeaconingSession {
    /// A beacon URL to write to the outbox, and where its record is.
    struct StoredBeacon: Sendable {
        let deliveryKey: String
        let index: Int
        let sentAt: Duration
        let message: OutboxMessage
    }

    /// What writing a beacon URL came to, when it was not simply stored: its outcome, and what to log.
    struct StoreResult: Sendable {
        let beacon: StoredBeacon
        let outcome: BeaconRecord.URLState.Outcome?
        let note: String
        let isError: Bool
    }

    /// Writes beacon URLs to the outbox after those fired before them, off the main actor.
    func store(_ beacons: [StoredBeacon]) {
        guard !beacons.isEmpty else { return }
        let previous = storing
        let outbox = outbox
        storing = Task { [weak self] in
            await previous?.value
            let results = await Self.persist(beacons, to: outbox)
            self?.stored(results)
        }
    }

    nonisolated static func persist(_ beacons: [StoredBeacon], to outbox: Outbox) async -> [StoreResult] {
        var results: [StoreResult] = []
        for beacon in beacons {
            do {
                guard try await !outbox.persist(beacon.message) else { continue }
                // An earlier run of the session handed this one over already: it is not sent again.
                results.append(StoreResult(
                    beacon: beacon, outcome: try earlierOutcome(of: beacon.message.key, at: beacon.sentAt, in: outbox),
                    note: "beacon \(beacon.message.key) was handed over by an earlier run: not sent again", isError: false))
            } catch {
                results.append(StoreResult(beacon: beacon, outcome: .failed("not stored: \(error)"),
                                           note: "beacon \(beacon.deliveryKey) could not be queued: \(error)", isError: true))
            }
        }
        return results
    }

    /// Gives the URLs that were not simply stored their outcome.
    func stored(_ results: [StoreResult]) {
        for result in results {
            if let position = recordIndex[result.beacon.deliveryKey],
               beacons[position].urls.indices.contains(result.beacon.index) {
                beacons[position].urls[result.beacon.index].outcome = result.outcome
            }
            log(result.note, isError: result.isError)
            settle(result.beacon.deliveryKey)
        }
        if !results.isEmpty { resumeReportWaiters() }
    }

    /// Waits until the beacons fired so far are written to the outbox (before the outbox is drained at the end of
    /// a session, say).
    public func beaconsStored() async {
        await storing?.value
    }
}
