import PlaytraceNetwork

/// What an earlier run of a session handed over to the outbox, read back when the session resumes: each beacon's
/// URLs with what became of them, matched to the events the metadata lists so that none is fired again.
struct BeaconRestoration {
    /// A beacon an earlier run handed over: what became of each of its URLs.
    struct Beacon {
        var urls: [Int: OutboxKeyState] = [:]
        /// The event it belongs to, once the metadata lists it.
        var event: TrackingEventKey?

        var state: ReportingState {
            if urls.values.contains(.rejected) { return .failed }
            if urls.values.allSatisfy({ $0 == .delivered }) { return .done }
            return .connecting
        }
    }

    /// By delivery key.
    private var beacons: [String: Beacon] = [:]

    init() {}

    /// From the outbox's states of the session's keys (`<delivery key>/<URL index>`).
    init(states: [String: OutboxKeyState]) {
        for (key, state) in states {
            guard let slash = key.lastIndex(of: "/"), let index = Int(key[key.index(after: slash)...]) else { continue }
            beacons[String(key[..<slash]), default: Beacon()].urls[index] = state
        }
    }

    var count: Int { beacons.count }

    /// Whether `deliveryKey` was handed over by an earlier run.
    func contains(_ deliveryKey: String) -> Bool { beacons[deliveryKey] != nil }

    /// Matches the listed automatic events not fired yet with what an earlier run handed over; returns their
    /// states.
    mutating func match(_ pods: [AdPod], keyPrefix prefix: String) -> [(TrackingEventKey, ReportingState)] {
        guard !beacons.isEmpty else { return [] }
        var marked: [(TrackingEventKey, ReportingState)] = []
        for pod in pods {
            for event in pod.allTrackingEvents where event.reportingState == .idle && event.event.kind == .automatic {
                let deliveryKey = prefix + event.id.description
                guard let beacon = beacons[deliveryKey] else { continue }
                beacons[deliveryKey]?.event = event.id
                marked.append((event.id, beacon.state))
            }
        }
        return marked
    }

    /// Takes the courier's report of an attempt at one of these beacons: the state its event moves to, when the
    /// metadata lists it, and a failure to say.
    mutating func attemptFinished(_ attempt: BeaconAttempt, deliveryKey: String,
                                  index: Int) -> (event: (TrackingEventKey, ReportingState)?, failure: String?) {
        var failure: String?
        switch attempt.outcome {
        case .delivered: beacons[deliveryKey]?.urls[index] = .delivered
        case .reject(let reason), .split(let reason):
            beacons[deliveryKey]?.urls[index] = .rejected
            failure = "beacon \(beacons[deliveryKey]?.event?.name ?? "left by an earlier run") failed for good: \(reason)"
        case .retry, .pause: beacons[deliveryKey]?.urls[index] = .pending(attempts: attempt.attempt)
        }
        guard let beacon = beacons[deliveryKey], let event = beacon.event else { return (nil, failure) }
        return ((event, beacon.state), failure)
    }
}
