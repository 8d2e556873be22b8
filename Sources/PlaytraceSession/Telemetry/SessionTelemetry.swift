import Foundation
import Logging
import PlaytraceAds
public import PlaytraceBackends
import PlaytraceCore
public import PlaytraceNetwork
import PlaytracePlayer
public import PlaytraceTelemetry

/// A session's telemetry: an instrument with HubCore, MetricalcCore and the backends its ``Settings`` ask for,
/// the outbox that delivers their batches, and the session metrics kept for the summary.
public final class SessionTelemetry: Sendable {
    /// Where telemetry goes. Each backend is on when its setting is given.
    public struct Settings: Sendable {
        /// InfluxDB (`--influx`): its configuration, and the URL as given (named in warnings).
        public var influx: InfluxDBBackend.Configuration?
        /// Graphite's carbon plaintext address (`--graphite`).
        public var graphite: (host: String, port: Int)?
        /// New Relic's Event API (`--newrelic-account`).
        public var newRelic: NewRelicBackend.Configuration?
        /// An OpenTelemetry collector (`--otlp`).
        public var otlp: OTLPBackend.Configuration?
        /// A file of JSON lines (`--jsonl`).
        public var jsonLinesPath: String?
        /// Every event and metric said through the session's output (`--telemetry-console`).
        public var console = false
        /// The outbox file (`--outbox`): undelivered batches wait there for the next run.
        public var outboxPath: String?
        /// At the end, the longest spent delivering what waits (`--drain-timeout`).
        public var drainTimeout: Duration = .seconds(10)
        /// Whether the session metrics are kept for the summary's `qoe` and lines: a probe of thousands of viewers
        /// takes each viewer's figures from its items instead.
        public var keepsSessionMetrics = true
        /// Whether many viewers share the instrument (the probe): its hub keeps each viewer's ad state apart, by the
        /// `sessionId` of its trackers' events.
        public var isSharedByViewers = false

        public init() {}
    }

    public let instrument: Instrument
    let outbox: Outbox
    private let otlp: OTLPBackend?
    private let keepsUndelivered: Bool
    private let outboxPath: String?
    private let drainTimeout: Duration
    private let summary = SummaryBackend()

    /// The couriers of the backends `settings` ask for, to make the run's ``SessionOutbox`` with. InfluxDB's
    /// database is created (when missing) beside the session, not before it: its batches wait for the check,
    /// playback does not; `warn` hears when it fails.
    public static func couriers(for settings: Settings, transport: any HTTPTransport,
                                warn: @escaping @Sendable (String) -> Void) -> [any OutboxCourier] {
        var couriers: [any OutboxCourier] = []
        if let configuration = settings.otlp {
            couriers.append(OTLPBackend.courier(transport: transport, configuration: configuration))
        }
        if let configuration = settings.influx {
            let check = Task {
                do {
                    try await InfluxDBBackend.createDatabase(for: configuration, transport: transport)
                } catch {
                    // Not fatal: the batches wait in the outbox for a destination that works.
                    warn("--influx \(configuration.url.absoluteString): \(error)")
                }
            }
            couriers.append(PreparedCourier(InfluxDBBackend.courier(transport: transport, configuration: configuration),
                                            after: check))
        }
        if let (host, port) = settings.graphite {
            couriers.append(GraphiteBackend.courier(host: host, port: port))
        }
        if let configuration = settings.newRelic {
            couriers.append(NewRelicBackend.courier(transport: transport, configuration: configuration))
        }
        return couriers
    }

    /// The telemetry of the backends `settings` ask for, delivered through the run's outbox (whose couriers came
    /// from ``couriers(for:transport:warn:)``).
    /// - Parameters:
    ///   - settings: the backends.
    ///   - clock: the session's clock.
    ///   - output: where ``Settings/console`` says each event.
    ///   - run: the run's outbox.
    public init(settings: Settings, clock: any Clock<Duration>, output: any SessionOutput,
                outbox run: SessionOutbox) async throws {
        keepsUndelivered = settings.outboxPath != nil
        outboxPath = settings.outboxPath
        drainTimeout = settings.drainTimeout
        outbox = run.outbox
        var backends: [any Backend & Sendable] = settings.keepsSessionMetrics ? [summary] : []
        if let configuration = settings.influx {
            backends.append(InfluxDBBackend(configuration: configuration, outbox: outbox))
        }
        if settings.graphite != nil { backends.append(GraphiteBackend(outbox: outbox)) }
        if let configuration = settings.newRelic {
            backends.append(NewRelicBackend(configuration: configuration, outbox: outbox))
        }
        if let configuration = settings.otlp {
            let backend: OTLPBackend
            do {
                backend = try await OTLPBackend(configuration: configuration, outbox: outbox)
            } catch {
                throw PlainFailure("--otlp \(configuration.endpoint.absoluteString)", error: error)
            }
            otlp = backend
            backends.append(backend)
        } else {
            otlp = nil
        }
        if let path = settings.jsonLinesPath {
            do {
                backends.append(try JSONLinesBackend(path: path))
            } catch {
                throw PlainFailure("--jsonl \(path)", error: error)
            }
        }
        if settings.console { backends.append(ConsoleBackend { line in output.message("[telemetry] " + line) }) }
        // HubCoreAds: the content's rules, plus the ad rules (ad time is not content time) for the ad tracking's events.
        instrument = Instrument(hub: HubCoreAds(separatesSessions: settings.isSharedByViewers), metricalc: MetricalcCore(),
                                backends: backends, clock: clock)
        instrument.ready()
        // Batches leave while the session plays, as each is closed.
        await outbox.start()
    }

    /// `host:port`, as `--graphite` takes it.
    public     static func hostAndPort(_ text: String) -> (String, Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (1...65535).contains(port)
        else { return nil }
        let host = String(text[..<colon])
        return host.isEmpty ? nil : (host, port)
    }

    /// The tracker adapter that drives the instrument from a session's item.
    @MainActor
    func adapter(sessionID: String) -> TrackerAdapter<ItemMetadata> {
        PlayerTelemetryTracker.adapter(configuration: .init(instrument: instrument, sessionID: sessionID),
                                       behavior: .mandatory) { metadata in
            TelemetryMetadata(contentID: metadata.title, title: metadata.title, source: metadata.source)
        }
    }

    /// What went wrong with delivery, once ``finish()`` has run: refused batches, paused destinations, batches
    /// lost at exit. `play` exits non-zero when there is any.
    private let deliveryProblems = Locked<[String]>([])

    /// What went wrong with delivery, once ``finish()`` has run.
    var problems: [String] { deliveryProblems.withLock { $0 } }

    /// The session metrics kept for the summary: content, metric name, value.
    var metricValues: [(content: String, name: String, value: Double)] { summary.values }

    /// Ends the instrument, delivers what is left (within the drain timeout), and returns the summary lines: this
    /// run's batches (the outbox file's lifetime figures are `playtrace outbox FILE`'s).
    func finish() async -> [String] {
        instrument.shutdown()
        await otlp?.shutdown()
        // The run's batches, not its beacons (the ad tracking drains those within its own --beacon-wait).
        let batchDestinations = outbox.destinations.filter { $0 != BeaconCourier.destination }
        let drain = await outbox.drain(within: drainTimeout, only: Set(batchDestinations))
        var lines = summary.lines()
        var problems: [String] = []
        let batches = await outbox.runCounts().filter { $0.key != BeaconCourier.destination }.values
        let delivered = batches.reduce(0) { $0 + $1.delivered - $1.deliveredFromEarlierRuns }
        let refused = batches.reduce(0) { $0 + $1.rejected }
        let split = batches.reduce(0) { $0 + $1.split }
        let pending = drain.pendingByDestination.filter { $0.key != BeaconCourier.destination }.values.reduce(0, +)
        if delivered + refused + pending + drain.lost > 0 {
            var line = "  delivery          \(delivered) batch(es) delivered this run"
            if pending > 0 {
                if drain.fileProblem != nil {
                    line += ", \(pending) waiting and lost (the outbox file is gone, see below)"
                } else {
                    line += ", \(pending) waiting " + (keepsUndelivered
                        ? "in \(outboxPath ?? "the outbox") (playtrace outbox \(outboxPath ?? "FILE") --deliver sends them)"
                        : "and lost at exit (no --outbox file)")
                }
                if drain.timedOut { line += " after the \(Format.seconds(drainTimeout.seconds)) drain" }
                line += Format.retryAfter(drain.retryAfter.filter { $0.key != BeaconCourier.destination })
            }
            let retried = batches.reduce(0) { $0 + $1.retried }
            if retried > 0, let reason = batches.lazy.compactMap(\.latestFailure).first {
                line += ", \(retried) failed attempt(s) (latest: \(PlainText.safe(reason)))"
            }
            if split > 0 { line += ", \(split) cut in smaller batches (HTTP 413)" }
            if refused > 0 { line += ", \(refused) refused" }
            if drain.lost > 0 { line += ", \(drain.lost) lost before they were stored" }
            lines.append(line)
        }
        if drain.lost > 0 {
            problems.append("\(drain.lost) batch(es) could not be stored for delivery, and are lost (see the log)")
        }
        if refused > 0 { problems.append("\(refused) batch(es) refused by their destination (see the log)") }
        if pending > 0 {
            // Kept or not, telemetry that did not reach its destination during the run is a shortfall of the run.
            problems.append(keepsUndelivered && drain.fileProblem == nil
                ? "\(pending) batch(es) not delivered during the run, waiting in \(outboxPath ?? "the outbox")"
                : "\(pending) batch(es) lost")
        }
        for (destination, reason) in drain.paused.sorted(by: { $0.key < $1.key }) where destination != BeaconCourier.destination {
            lines.append("  \(destination) paused: \(PlainText.safe(reason))")
            problems.append("\(destination) refuses its batches: \(PlainText.safe(reason))")
        }
        deliveryProblems.withLock { $0 = problems }
        return lines
    }
}

/// Keeps the session metrics (CTA-2066) of each content for the summary.
final class SummaryBackend: Backend, Sendable {
    private static let names = ["StartTime", "StallCount", "StallDuration", "RebufferingRatio", "WatchedTime",
                                "ContentPlaybackTime", "AverageBitrate", "BitrateSwitchesUp", "BitrateSwitchesDown",
                                "ExitBeforeVideoStart", "PlaybackFailure"]
    private let metrics = Locked<[(content: String, name: String, value: Double)]>([])

    func sendEvent(_ event: Event) {}

    func sendMetric(_ metric: Metric) {
        guard Self.names.contains(metric.name) else { return }
        let content = metric.dimensions[.contentId]?.description ?? "?"
        metrics.withLock { $0.append((content, metric.name, metric.value)) }
    }

    var values: [(content: String, name: String, value: Double)] { metrics.withLock { $0 } }

    func lines() -> [String] {
        let all = metrics.withLock { $0 }
        guard !all.isEmpty else { return [] }
        var lines = ["Metrics (CTA-2066, per session)"]
        var contents: [String] = []
        for entry in all where !contents.contains(entry.content) { contents.append(entry.content) }
        for content in contents {
            lines.append("  \(content)")
            for entry in all where entry.content == content {
                lines.append("    " + entry.name.padding(toLength: 22, withPad: " ", startingAt: 0) + Self.format(entry.name, entry.value))
            }
        }
        return lines
    }

    private static func format(_ name: String, _ value: Double) -> String {
        switch name {
        case "RebufferingRatio": String(format: "%.4f", value)
        case "AverageBitrate": Format.bitrate(value)
        case "StartTime": Format.seconds(value / 1_000) + " from the media request to the first frame"
        case "StallDuration", "WatchedTime", "ContentPlaybackTime": Format.seconds(value / 1_000)
        default: String(Int(saturating: value))
        }
    }
}
