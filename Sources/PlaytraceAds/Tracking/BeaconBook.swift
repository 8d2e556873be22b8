/// Every beacon a session fired, in order, each found by its delivery key: what a summary reports, what a
/// player-initiated report waits on, and what moves an event to done or failed.
struct BeaconBook: Sendable {
    /// The records, in the order the beacons were fired.
    private(set) var records: [BeaconRecord] = []
    /// Each record's place in ``records``, by delivery key.
    private var positions: [String: Int] = [:]

    /// Adds the record of a beacon just fired.
    mutating func add(_ record: BeaconRecord, deliveryKey: String) {
        positions[deliveryKey] = records.count
        records.append(record)
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
