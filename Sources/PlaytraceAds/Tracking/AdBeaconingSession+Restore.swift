import Foundation
import PlaytraceNetwork

extension AdBeaconingSession {
    /// Takes a session set up earlier — by ``start(mediaUrl:provider:)``, or by an earlier run of the app that kept
    /// its ``SessionInfo`` — and reads back from the outbox what was handed over for it: those events are marked
    /// (done, failed, or connecting while they wait) and never fired again; those still waiting are delivered and
    /// reported here.
    public func resume(_ info: SessionInfo) {
        sessionInfo = info
        identity = info.id
        restoration = BeaconRestoration()
        do {
            restoration = BeaconRestoration(states: try outbox.keyStates(withPrefix: BeaconFiring.keyPrefix(session: identity)))
        } catch {
            log("the beacons of an earlier run could not be read: \(error)", isError: true)
            return
        }
        if restoration.count > 0 {
            log("\(restoration.count) beacon(s) handed over by an earlier run of this session", isError: false)
        }
        markRestored()
    }

    /// Marks the listed events that an earlier run handed over with what became of them.
    func markRestored() {
        let marked = restoration.match(adPods, keyPrefix: BeaconFiring.keyPrefix(session: identity))
        for (event, state) in marked { setState(state, of: event) }
        restoredCount += marked.count
    }
}
