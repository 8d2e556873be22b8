import Foundation
import Logging
import PlaytraceBackends
import PlaytraceCore
import PlaytraceNetwork
import PlaytracePlayer
import PlaytraceTelemetry

/// The telemetry of a `play` or demo run: an instrument with HubCore, MetricalcCore and the backends asked for on
/// the command line, an outbox that delivers their batches, and the session metrics kept for the summary.
final class TelemetrySetup: Sendable {
    let instrument: Instrument
    let outbox: Outbox
    private let otlp: OTLPBackend?
    private let keepsUndelivered: Bool
    private let outboxPath: String?
    private let drainTimeout: Duration
    private let summary = SummaryBackend()

    init(options: TelemetryOptions, clock: any Clock<Duration>, transport: any HTTPTransport, output: ConsoleOutput) async throws {
        keepsUndelivered = options.outboxPath != nil
        outboxPath = options.outboxPath
        drainTimeout = .milliseconds(Int64((options.drainTimeout * 1_000).rounded()))
        var couriers: [any OutboxCourier] = []
        var makers: [(Outbox) throws -> any Backend & Sendable] = []
        let otlpURL = options.otlpURL.flatMap { URL(string: $0) }
        if otlpURL != nil { couriers.append(OTLPBackend.courier(transport: transport)) }
        if let text = options.influxURL, let url = URL(string: text) {
            couriers.append(InfluxDBBackend.courier(transport: transport))
            let api: InfluxDBBackend.Configuration.API = options.resolvedInfluxToken.map {
                .v2(organization: options.influxOrganization, bucket: options.influxDatabase, token: $0)
            } ?? .v1(database: options.influxDatabase)
            makers.append { InfluxDBBackend(configuration: .init(url: url, api: api), outbox: $0) }
            // A server slow to answer is named while the session waits for it (at most the 5 s of the request).
            let notice = Task {
                try await Task.sleep(for: .seconds(1))
                FileHandle.standardError.write(Data(PlainText.safe("waiting for InfluxDB at \(text) (at most 5 s)…").utf8 + [0x0A]))
            }
            defer { notice.cancel() }
            do {
                try await InfluxDBBackend.createDatabase(for: .init(url: url, api: api), transport: transport)
            } catch {
                // Not fatal: the batches wait in the outbox for a destination that works.
                FileHandle.standardError.write(Data(PlainText.safe("warning: --influx \(text): \(error)").utf8 + [0x0A]))
            }
        }
        if let address = options.graphite, let (host, port) = Self.hostAndPort(address) {
            couriers.append(GraphiteBackend.courier(host: host, port: port))
            makers.append { GraphiteBackend(outbox: $0) }
        }
        if let key = options.resolvedNewRelicKey, let account = options.newRelicAccount {
            couriers.append(NewRelicBackend.courier(transport: transport))
            let region: NewRelicBackend.Region = options.newRelicRegion == "eu" ? .eu : .us
            makers.append { NewRelicBackend(configuration: .init(accountID: account, apiKey: key, region: region), outbox: $0) }
        }
        do {
            // Delivery is real network traffic: its backoffs and the drain's deadline run on real time, even when
            // the demo's clock runs faster.
            outbox = try Outbox(path: options.outboxPath, couriers: couriers, clock: ContinuousClock())
        } catch {
            throw CommandFailure("--outbox \(options.outboxPath ?? "")", error: error)
        }
        var backends: [any Backend & Sendable] = [summary]
        for make in makers { backends.append(try make(outbox)) }
        if let otlpURL {
            var configuration = OTLPBackend.Configuration(endpoint: otlpURL)
            for (name, value) in options.resolvedOTLPHeaders { configuration.headers[name] = value }
            let backend: OTLPBackend
            do {
                backend = try await OTLPBackend(configuration: configuration, outbox: outbox)
            } catch {
                throw CommandFailure("--otlp \(otlpURL.absoluteString)", error: error)
            }
            otlp = backend
            backends.append(backend)
        } else {
            otlp = nil
        }
        if let path = options.jsonLinesPath {
            do {
                backends.append(try JSONLinesBackend(path: path))
            } catch {
                throw CommandFailure("--jsonl \(path)", error: error)
            }
        }
        if options.console { backends.append(ConsoleBackend { line in output.message("[telemetry] " + line) }) }
        // HubCoreAds: the content's rules, plus the ad rules (ad time is not content time) for the ad tracking's events.
        instrument = Instrument(hub: HubCoreAds(), metricalc: MetricalcCore(), backends: backends, clock: clock)
        instrument.ready()
        // Batches leave while the session plays, as each is closed.
        await outbox.start()
    }

    static func hostAndPort(_ text: String) -> (String, Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (1...65535).contains(port)
        else { return nil }
        let host = String(text[..<colon])
        return host.isEmpty ? nil : (host, port)
    }

    /// The tracker adapter that drives the instrument from a demo item.
    @MainActor
    func adapter(sessionID: String) -> TrackerAdapter<DemoMetadata> {
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

    /// Ends the instrument, delivers what is left (within the drain timeout), and returns the summary lines.
    func finish() async -> [String] {
        instrument.shutdown()
        await otlp?.shutdown()
        let drain = await outbox.drain(within: drainTimeout)
        await outbox.stop()
        var lines = summary.lines()
        var problems: [String] = []
        do {
            let statistics = try await outbox.statistics()
            if statistics.enqueued > 0 {
                var line = "  delivery          \(statistics.delivered) batch(es) delivered"
                if drain.pending > 0 {
                    line += ", \(drain.pending) waiting " + (keepsUndelivered
                        ? "in \(outboxPath ?? "the outbox") (playtrace outbox \(outboxPath ?? "FILE") --deliver sends them)"
                        : "and lost at exit (no --outbox file)")
                    if drain.timedOut { line += " after the \(Format.seconds(drainTimeout.seconds)) drain" }
                }
                if statistics.rejected > 0 { line += ", \(statistics.rejected) refused" }
                if statistics.dropped > 0 { line += ", \(statistics.dropped) dropped" }
                if drain.lost > 0 { line += ", \(drain.lost) lost before they were stored" }
                lines.append(line)
            } else if drain.lost > 0 {
                lines.append("  delivery          \(drain.lost) batch(es) lost before they were stored")
            }
            if drain.lost > 0 {
                problems.append("\(drain.lost) batch(es) could not be stored for delivery, and are lost (see the log)")
            }
            if statistics.rejected > 0 {
                problems.append("\(statistics.rejected) batch(es) refused by their destination (see the log)")
            }
            if drain.pending > 0, !keepsUndelivered { problems.append("\(drain.pending) batch(es) lost") }
        } catch {
            lines.append("  delivery          unknown (\(error))")
            problems.append("delivery unknown: \(error)")
        }
        for (destination, reason) in drain.paused.sorted(by: { $0.key < $1.key }) {
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
        default: String(Int(value))
        }
    }
}
