import ArgumentParser
import PlaytraceBackends
import Foundation

/// Where `play` and the demo send telemetry.
struct TelemetryOptions: ParsableArguments {
    @Option(name: .customLong("influx"), help: "InfluxDB base URL (http://host:8086): events and metrics in line protocol.")
    var influxURL: String?

    @Option(name: .customLong("influx-token"), help: """
        InfluxDB 2/3 token (uses /api/v2/write; without it, the 1.x /write API). Read from INFLUX_TOKEN when not \
        given, so that it need not appear in the process list.
        """)
    var influxToken: String?

    @Option(name: .customLong("influx-db"), help: "InfluxDB 1.x database, or 2/3 bucket.")
    var influxDatabase = "playtrace"

    @Option(name: .customLong("influx-org"), help: "InfluxDB 2/3 organization.")
    var influxOrganization = "playtrace"

    @Option(name: .customLong("graphite"), help: "Graphite (carbon) plaintext address, host:port.")
    var graphite: String?

    @Option(name: .customLong("newrelic-key"), help: """
        New Relic license or insert key (Event and Metric APIs). Read from NEW_RELIC_LICENSE_KEY when not given.
        """)
    var newRelicKey: String?

    @Option(name: .customLong("newrelic-account"), help: "New Relic account id (for the Event API).")
    var newRelicAccount: String?

    @Option(name: .customLong("newrelic-region"), help: "New Relic region: us or eu.")
    var newRelicRegion = "us"

    @Option(name: .customLong("otlp"), help: "OpenTelemetry collector OTLP/HTTP base URL (http://host:4318): metrics, and playbacks as traces.")
    var otlpURL: String?

    @Option(name: .customLong("otlp-header"), help: """
        A header for OTLP exports, name=value (repeatable). OTEL_EXPORTER_OTLP_HEADERS (name=value pairs separated \
        by commas, values percent-encoded, as OpenTelemetry defines it) adds the headers not given here.
        """)
    var otlpHeaders: [String] = []

    @Option(name: .customLong("jsonl"), help: "Append events and metrics to this file, one JSON object per line.")
    var jsonLinesPath: String?

    @Option(name: .customLong("outbox"), help: "The outbox file (SQLite) that keeps undelivered telemetry across runs.")
    var outboxPath: String?

    @Flag(name: .customLong("telemetry-console"), help: "Print every telemetry event and metric.")
    var console = false

    @Option(name: .customLong("drain-timeout"),
            help: "At the end of a session, the most seconds spent delivering the telemetry still waiting.")
    var drainTimeout: Double = 10

    /// The InfluxDB token: `--influx-token`, or `INFLUX_TOKEN`.
    var resolvedInfluxToken: String? { influxToken ?? Self.environment("INFLUX_TOKEN") }

    /// InfluxDB's API: v2 with a token (`--influx-token`, `INFLUX_TOKEN`), v1 otherwise.
    var influxAPI: InfluxDBBackend.Configuration.API {
        resolvedInfluxToken.map { .v2(organization: influxOrganization, bucket: influxDatabase, token: $0) }
            ?? .v1(database: influxDatabase)
    }

    /// The New Relic key: `--newrelic-key`, or `NEW_RELIC_LICENSE_KEY`.
    var resolvedNewRelicKey: String? { newRelicKey ?? Self.environment("NEW_RELIC_LICENSE_KEY") }

    /// The OTLP headers: `--otlp-header`, then those of `OTEL_EXPORTER_OTLP_HEADERS` not given on the command line.
    var resolvedOTLPHeaders: [String: String] {
        var headers: [String: String] = [:]
        for entry in Self.environment("OTEL_EXPORTER_OTLP_HEADERS")?.split(separator: ",") ?? [] {
            let parts = entry.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let name = parts[0].trimmingCharacters(in: .whitespaces)
            let value = parts[1].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { continue }
            headers[name] = value.removingPercentEncoding ?? value
        }
        for header in otlpHeaders {
            let parts = header.split(separator: "=", maxSplits: 1)
            headers[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return headers
    }

    private static func environment(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    func validate() throws {
        if let jsonLinesPath { try WritablePath.check(jsonLinesPath, option: "--jsonl", appending: true) }
        if let influxURL, URL(string: influxURL)?.host == nil { throw ValidationError("--influx needs a URL such as http://127.0.0.1:8086") }
        if let otlpURL, URL(string: otlpURL)?.host == nil { throw ValidationError("--otlp needs a URL such as http://127.0.0.1:4318") }
        if otlpHeaders.contains(where: { !$0.contains("=") }) { throw ValidationError("--otlp-header is name=value") }
        if let graphite, TelemetrySetup.hostAndPort(graphite) == nil { throw ValidationError("--graphite needs host:port") }
        if newRelicKey != nil, newRelicAccount == nil { throw ValidationError("--newrelic-key needs --newrelic-account") }
        if newRelicAccount != nil, resolvedNewRelicKey == nil {
            throw ValidationError("--newrelic-account needs a key: --newrelic-key or NEW_RELIC_LICENSE_KEY")
        }
        guard ["us", "eu"].contains(newRelicRegion) else { throw ValidationError("--newrelic-region is us or eu") }
        guard drainTimeout >= 0, drainTimeout <= 3_600 else {
            throw ValidationError("--drain-timeout must be between 0 and 3600 seconds")
        }
    }
}
