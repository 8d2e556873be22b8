import Foundation
import PlaytraceNetwork

/// A beacon that an earlier run of the session handed over to the outbox: what became of each of its URLs.
struct RestoredBeacon {
    var urls: [Int: OutboxKeyState] = [:]
    /// The event it belongs to, once the metadata lists it.
    var event: TrackingEventKey?

    var state: ReportingState {
        if urls.values.contains(.rejected) { return .failed }
        if urls.values.allSatisfy({ $0 == .delivered }) { return .done }
        return .connecting
    }
}

extension AdBeaconingSession {
    /// Takes a session set up earlier — by ``start(mediaUrl:provider:)``, or by an earlier run of the app that kept
    /// its ``SessionInfo`` — and reads back from the outbox what was handed over for it: those events are marked
    /// (done, failed, or connecting while they wait) and never fired again; those still waiting are delivered and
    /// reported here.
    public func resume(_ info: SessionInfo) {
        sessionInfo = info
        identity = info.id
        restored = [:]
        let states: [String: OutboxKeyState]
        do {
            states = try outbox.keyStates(withPrefix: BeaconFiring.keyPrefix(session: identity))
        } catch {
            log("the beacons of an earlier run could not be read: \(error)", isError: true)
            return
        }
        for (key, state) in states {
            guard let slash = key.lastIndex(of: "/"), let index = Int(key[key.index(after: slash)...]) else { continue }
            restored[String(key[..<slash]), default: RestoredBeacon()].urls[index] = state
        }
        if !restored.isEmpty {
            log("\(restored.count) beacon(s) handed over by an earlier run of this session", isError: false)
        }
        markRestored()
    }

    /// Marks the listed events that an earlier run handed over with what became of them.
    func markRestored() {
        guard !restored.isEmpty else { return }
        let prefix = BeaconFiring.keyPrefix(session: identity)
        var marked: [(TrackingEventKey, String, ReportingState)] = []
        for pod in adPods {
            for event in pod.allTrackingEvents where event.reportingState == .idle && event.event.kind == .automatic {
                let deliveryKey = prefix + event.id.description
                if let beacon = restored[deliveryKey] { marked.append((event.id, deliveryKey, beacon.state)) }
            }
        }
        for (event, deliveryKey, state) in marked {
            restored[deliveryKey]?.event = event
            setState(state, of: event)
            restoredBeaconCount += 1
        }
    }

    /// The courier's report of an attempt at a beacon an earlier run handed over.
    func restoredAttemptFinished(_ attempt: BeaconAttempt, deliveryKey: String, index: Int) {
        switch attempt.outcome {
        case .delivered: restored[deliveryKey]?.urls[index] = .delivered
        case .reject(let reason), .split(let reason):
            restored[deliveryKey]?.urls[index] = .rejected
            let name = restored[deliveryKey]?.event?.name ?? "left by an earlier run"
            log("beacon \(name) failed for good: \(reason)", isError: true)
        case .retry, .pause: restored[deliveryKey]?.urls[index] = .pending(attempts: attempt.attempt)
        }
        guard let beacon = restored[deliveryKey], let event = beacon.event else { return }
        setState(beacon.state, of: event)
    }

    /// What became of a beacon URL an earlier run handed over (its key is remembered by the outbox).
    nonisolated static func earlierOutcome(of key: String, at instant: Duration,
                                           in outbox: Outbox) throws -> BeaconRecord.URLState.Outcome? {
        switch try outbox.keyStates(withPrefix: key)[key] {
        case .delivered, nil: .delivered(instant)
        case .rejected: .failed("refused in an earlier run")
        case .pending: nil
        }
    }
}
