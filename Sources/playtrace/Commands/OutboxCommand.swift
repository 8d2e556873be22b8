import PlaytraceCore
import PlaytraceSession
import ArgumentParser
import Foundation
import PlaytraceAds
import PlaytraceBackends
import PlaytraceNetwork

/// `playtrace outbox FILE [--deliver]`: what an outbox file holds, and delivering what an earlier run left.
struct OutboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outbox",
        abstract: "Show what an outbox file holds; with --deliver, deliver what earlier runs could not.",
        discussion: """
            HTTP batches (InfluxDB, New Relic, OTLP) and ad beacons go to the URL stored with them; Graphite \
            batches need --graphite. The file holds no credentials: give them as play takes them (--influx-token or \
            INFLUX_TOKEN, --newrelic-key or NEW_RELIC_LICENSE_KEY, --otlp-header or OTEL_EXPORTER_OTLP_HEADERS, the \
            user:password of --influx or --otlp); a destination whose batches need credentials this run lacks is \
            paused, and says so. With --deliver, exits 1 while any message is still waiting.
            """)

    @OptionGroup var common: CommonOptions

    @Argument(help: "The outbox file (the --outbox of play and the demo).")
    var file: String

    @Flag(help: "Try to deliver every waiting message now.")
    var deliver = false

    @Option(help: "Graphite (carbon) plaintext address for Graphite batches, host:port.")
    var graphite: String?

    @OptionGroup var credentials: CredentialOptions

    @Option(help: "InfluxDB base URL whose user:password@ authenticates InfluxDB 1.x batches (the batches keep their own URL).")
    var influx: String?

    @Option(help: "OTLP base URL whose user:password@ authenticates OTLP exports (the exports keep their own URL).")
    var otlp: String?

    @Option(help: "With --deliver, the most seconds spent delivering (destinations in parallel; each request has its own deadline too).")
    var timeout: Double = 60

    func validate() throws {
        guard FileManager.default.fileExists(atPath: file) else { throw ValidationError("no outbox file at \(file)") }
        if let graphite, SessionTelemetry.hostAndPort(graphite) == nil { throw ValidationError("--graphite needs host:port") }
        guard timeout > 0, timeout <= 86_400 else { throw ValidationError("--timeout must be between 0 and 86400 seconds") }
    }

    func run() async throws {
        common.bootstrapLogging()
        try await AsyncHTTPClientTransport.scoped { transport in
            // Credentials as play takes them (options, then the environment): the file holds none.
            let influxCredentials: [(name: String, value: String)] = credentials.resolvedInfluxToken
                .map { [("Authorization", "Token \($0)")] }
                ?? influx.flatMap { URL(string: $0) }.flatMap(OutboxCredentials.basicAuthorization).map { [$0] } ?? []
            var couriers: [any OutboxCourier] = [
                InfluxDBBackend.courier(transport: transport, credentials: influxCredentials),
                NewRelicBackend.courier(transport: transport, apiKey: credentials.resolvedNewRelicKey),
                OTLPBackend.courier(transport: transport, headers: credentials.resolvedOTLPHeaders,
                                    endpoint: otlp.flatMap { URL(string: $0) }),
                BeaconCourier(transport: transport),
            ]
            if let graphite, let (host, port) = SessionTelemetry.hostAndPort(graphite) {
                couriers.append(GraphiteBackend.courier(host: host, port: port))
            }
            let outbox: Outbox
            let before: OutboxStatistics
            do {
                outbox = try Outbox(path: file, couriers: couriers)
                before = try await outbox.statistics()
            } catch {
                throw PlainFailure(file, error: error)
            }
            print(Self.describe(before, file: file))
            guard deliver else { return }
            let drain = await outbox.drain(within: .saturating(milliseconds: timeout * 1_000))
            let counts = await outbox.runCounts().values
            let waiting = drain.pendingByDestination.values.reduce(0, +)
            print("delivered \(counts.reduce(0) { $0 + $1.delivered }), refused \(counts.reduce(0) { $0 + $1.rejected }); "
                + "\(waiting) waiting" + (drain.timedOut ? " (stopped after \(Format.seconds(timeout)))" : ""))
            for (destination, count) in drain.pendingByDestination.sorted(by: { $0.key < $1.key }) {
                let why = drain.paused[destination].map { "paused: " + PlainText.safe($0) }
                    ?? (destination == GraphiteBackend.destination && graphite == nil ? "--graphite delivers them" : "to retry later")
                print(PlainText.safe("  " + destination.padding(toLength: 12, withPad: " ", startingAt: 0) + "\(count) waiting (\(why))"))
            }
            if let problem = drain.fileProblem {
                throw PlainFailure(file, "the file was \(problem) during delivery")
            }
            if waiting > 0 { throw ExitCode(1) }
        }
    }

    static func describe(_ statistics: OutboxStatistics, file: String) -> String {
        var lines = ["\(file): \(statistics.pending) message(s) waiting (\(Format.bytes(statistics.pendingBytes)))"]
        if let oldest = statistics.oldestPending {
            lines[0] += ", the oldest enqueued \(ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: oldest)))"
        }
        for (destination, count) in statistics.pendingByDestination.sorted(by: { $0.key < $1.key }) {
            lines.append("  " + destination.padding(toLength: 12, withPad: " ", startingAt: 0) + "\(count)")
        }
        if statistics.quarantined > 0 {
            lines.append("  \(statistics.quarantined) unreadable row(s) set aside (never sent)")
        }
        lines.append("in the file's lifetime: enqueued \(statistics.enqueued), delivered \(statistics.delivered), retried "
            + "\(statistics.retried), refused \(statistics.rejected), dropped \(statistics.dropped), duplicates "
            + "\(statistics.duplicates)")
        // Destinations are the file's text: each line escaped on its own, the line breaks kept.
        return lines.map(PlainText.safe).joined(separator: "\n")
    }
}
