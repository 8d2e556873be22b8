/// Every beacon a session fired, in order, each found by its delivery key: what a summary reports, what a
/// player-initiated report waits on, and what moves an event to done or failed.
struct BeaconBook: Sendable {
    /// The records, in the order the beacons were fired.
    private(set) var records: [BeaconRecord] = []
    /// Each record's delivery key, in the order of ``records``.
    private var deliveryKeys: [String] = []
    /// Each record's place in ``records``, by delivery key.
    private var positions: [String: Int] = [:]

    /// Adds the record of a beacon just fired.
    mutating func add(_ record: BeaconRecord, deliveryKey: String) {
        positions[deliveryKey] = records.count
        records.append(record)
        deliveryKeys.append(deliveryKey)
    }

    /// Changes one URL of a beacon; `false` when the book holds no such beacon or URL.
    @discardableResult
    mutating func update(_ deliveryKey: String, url index: Int, _ change: (inout BeaconRecord.URLState) -> Void) -> Bool {
        guard let position = positions[deliveryKey], records[position].urls.indices.contains(index) else { return false }
        change(&records[position].urls[index])
        return true
    }

    /// A beacon's record, by delivery key.
    func record(_ deliveryKey: String) -> BeaconRecord? { positions[deliveryKey].map { records[$0] } }

    /// Whether every beacon fired for the break `podID` has settled (each URL delivered, failed for good or not to be
    /// requested).
    func isSettled(pod podID: String) -> Bool {
        !records.contains { $0.firing.key.podID == podID && $0.state == nil }
    }

    /// Takes the records of the breaks `podIDs` out of the book; returns them, in order. Linear in the book's size.
    mutating func remove(pods podIDs: Set<String>) -> [BeaconRecord] {
        guard !podIDs.isEmpty else { return [] }
        var removed: [BeaconRecord] = []
        var kept: [BeaconRecord] = []
        var keptKeys: [String] = []
        kept.reserveCapacity(records.count)
        keptKeys.reserveCapacity(records.count)
        for (record, key) in zip(records, deliveryKeys) {
            if podIDs.contains(record.firing.key.podID) {
                removed.append(record)
            } else {
                kept.append(record)
                keptKeys.append(key)
            }
        }
        guard !removed.isEmpty else { return [] }
        records = kept
        deliveryKeys = keptKeys
        // A key fired twice (it never is) finds its latest record, as ``add(_:deliveryKey:)`` leaves it.
        positions = Dictionary(keptKeys.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { _, latest in latest })
        return removed
    }

    /// Whether the first attempt at every URL of these beacons ended (or the URL had its outcome without one).
    func firstAttemptsEnded(_ keys: [String]) -> Bool {
        keys.compactMap(record).allSatisfy { $0.urls.allSatisfy { $0.attempts > 0 || $0.outcome != nil } }
    }

    /// What became of these beacons, as a player-initiated report answers.
    func outcome(of keys: [String]) -> AdReportOutcome {
        let urls = keys.compactMap(record).flatMap(\.urls)
        if urls.contains(where: { $0.outcome?.isFailure == true }) { return .failed }
        if urls.allSatisfy({ if case .delivered = $0.outcome { true } else { false } }) { return .delivered }
        return .queued
    }
}
