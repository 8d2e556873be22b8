/// Waits (in real time, a millisecond at a time, at most `timeout`) until a system of players, engines and the lab
/// is quiescent: the requests in flight are exactly those parked on the lab's clock, no command is pending, and
/// the count of handled events has stayed the same for three checks in a row. Returns whether it got there.
@MainActor
public func waitForQuiescence(inFlight: () async -> Int, parked: () -> Int, handledEvents: () -> Int,
                              hasPendingWork: () -> Bool, timeout: Duration = .seconds(20)) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    var stableChecks = 0
    var lastHandled = -1
    while ContinuousClock.now < deadline {
        for _ in 0..<5 { await Task.yield() }
        let requests = await inFlight()
        let handled = handledEvents()
        if requests == parked(), !hasPendingWork(), handled == lastHandled {
            stableChecks += 1
            if stableChecks >= 3 { return true }
        } else {
            stableChecks = 0
        }
        lastHandled = handled
        try? await Task.sleep(for: .milliseconds(1))
    }
    return false
}
