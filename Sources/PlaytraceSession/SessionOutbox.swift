import Foundation
public import PlaytraceAds
import PlaytraceBackends
import PlaytraceCore
public import PlaytraceNetwork

/// The one outbox of a session's run: telemetry batches and ad beacons, with a courier for every kind of
/// message an outbox file can hold (the HTTP backends' batches go to the URL stored with them), so that a run with
/// `--outbox` also delivers what earlier runs left there. Graphite batches need the run's `--graphite`.
public final class SessionOutbox: Sendable {
    /// The outbox itself.
    public let outbox: Outbox
    /// The `--outbox` file; `nil` keeps messages in memory (lost at exit).
    let path: String?
    /// Where the beacon courier's reports go: the ad session, once there is one.
    private let beaconReports: BeaconReportRoute

    /// - Parameters:
    ///   - path: the `--outbox` file.
    ///   - couriers: the couriers of the backends the run sends to.
    ///   - transport: what the HTTP batches go through (those of earlier runs' backends too).
    ///   - beaconAttempts: the attempts at each beacon URL (`--beacon-attempts`).
    ///   - beaconTransport: what beacons go through (`--beacon-header`, the user agent); `transport` by default.
    ///   - beaconConcurrency: the beacon requests under way at once (a probe's many viewers open more than one's).
    public init(path: String?, couriers: [any OutboxCourier], transport: any HTTPTransport, beaconAttempts: Int = 8,
                beaconTransport: (any HTTPTransport)? = nil, beaconConcurrency: BeaconCourier.Concurrency = .viewer) throws {
        self.path = path
        var all = couriers
        var names = Set(couriers.map(\.name))
        if path != nil {
            // What an earlier run with other backends left goes out too.
            for courier in [InfluxDBBackend.courier(transport: transport), NewRelicBackend.courier(transport: transport),
                            OTLPBackend.courier(transport: transport)] as [any OutboxCourier]
                where names.insert(courier.name).inserted {
                all.append(courier)
            }
        }
        let reports = BeaconReportRoute()
        beaconReports = reports
        all.append(BeaconCourier(transport: beaconTransport ?? transport, maximumAttempts: beaconAttempts,
                                 concurrency: beaconConcurrency) { attempt in
            reports.receiver(for: attempt.key)?(attempt)
        })
        do {
            // Delivery is real network traffic: its backoffs and drains run on real time, even when the session's
            // clock runs faster.
            outbox = try Outbox(path: path, couriers: all, clock: ContinuousClock())
        } catch {
            throw PlainFailure("--outbox \(path ?? "")", error: error)
        }
    }

    /// Sends the beacon courier's reports to `receive` (the ad session's).
    func routeBeaconReports(to receive: @escaping @Sendable (BeaconAttempt) -> Void) {
        beaconReports.routes.withLock { $0.only = receive }
    }

    /// Sends the reports of beacons whose keys begin with `prefix` (one ad session's, among the many that share this
    /// outbox) to `receive`; nil stops them.
    func routeBeaconReports(withPrefix prefix: String, to receive: (@Sendable (BeaconAttempt) -> Void)?) {
        beaconReports.routes.withLock { $0.byPrefix[prefix] = receive }
    }

    /// The outbox's own lines for the summary, once the run's drains are done: what earlier runs left that this run
    /// delivered, what waits for a destination this run cannot reach, and what happened to the file (a finding).
    func finish() async -> (lines: [String], findings: [SessionVerdict.Finding]) {
        await outbox.stop()
        var lines: [String] = []
        var findings: [SessionVerdict.Finding] = []
        let earlier = await outbox.runCounts().values.reduce(0) { $0 + $1.deliveredFromEarlierRuns }
        if earlier > 0 {
            lines.append("  outbox            \(earlier) message(s) left by earlier runs delivered")
        }
        if let path, let statistics = try? await outbox.statistics() {
            let graphite = statistics.pendingByDestination[GraphiteBackend.destination] ?? 0
            if graphite > 0 {
                lines.append("  outbox            \(graphite) Graphite batch(es) wait in \(path) (--graphite delivers them)")
            }
        }
        if let problem = outbox.fileProblem() {
            let text = "the outbox file \(path ?? "") was \(problem): what it held is lost"
            lines.append("  outbox            " + PlainText.safe(text))
            findings.append(.init(kind: .outbox, text: PlainText.safe(text)))
        }
        return (lines, findings)
    }
}

/// Who receives the beacon courier's reports, set once the ad session exists (the courier is made before it): the
/// run's one ad session, or each of many by the prefix of its beacons' keys (`beacon:<session>:`).
private final class BeaconReportRoute: Sendable {
    struct Routes {
        var only: (@Sendable (BeaconAttempt) -> Void)?
        var byPrefix: [String: @Sendable (BeaconAttempt) -> Void] = [:]
    }

    let routes = Locked(Routes())

    /// The receiver of the report of a beacon with this key: the session whose prefix it begins with (each `:` of the
    /// key ends a candidate, so that a session id may hold one), else the only one.
    func receiver(for key: String) -> (@Sendable (BeaconAttempt) -> Void)? {
        routes.withLock { routes in
            guard !routes.byPrefix.isEmpty else { return routes.only }
            var index = key.startIndex
            while let colon = key[index...].firstIndex(of: ":") {
                let next = key.index(after: colon)
                if let receive = routes.byPrefix[String(key[..<next])] { return receive }
                index = next
            }
            return routes.only
        }
    }
}
