/// The player-initiated reports waiting for the first attempt at each URL of their beacons
/// (``AdBeaconingSession/report(_:)``), each until its beacons had it or its time ran out.
struct ReportWaiters {
    private struct Waiter {
        var keys: [String]
        var continuation: CheckedContinuation<Void, Never>
    }

    private var waiting: [Int: Waiter] = [:]
    private var nextID = 0

    /// An identifier for a report about to wait (its timeout is set before it waits).
    mutating func makeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    /// A report waits for the first attempts at these beacons.
    mutating func wait(_ id: Int, for keys: [String], continuation: CheckedContinuation<Void, Never>) {
        waiting[id] = Waiter(keys: keys, continuation: continuation)
    }

    /// Ends a report's wait (its time ran out, or its beacons had their first attempts); nothing if it ended.
    mutating func resume(_ id: Int) { waiting.removeValue(forKey: id)?.continuation.resume() }

    /// Ends the waits whose beacons are `ready`.
    mutating func resume(where ready: ([String]) -> Bool) {
        for (id, waiter) in waiting where ready(waiter.keys) { resume(id) }
    }
}
