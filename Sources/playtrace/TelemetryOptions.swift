import ArgumentParser
import Foundation

/// Where `play` and the demo send telemetry.
struct TelemetryOptions: ParsableArguments {
    @Option(name: .customLong("influx"), help: "InfluxDB base URL (http://host:8086): events and metrics in line protocol.")
    var influxURL: String?

    @Option(name: .customLong("influx-token"), help: "InfluxDB 2/3 token (uses /api/v2/write; without it, the 1.x /write API).")
    var influxToken: String?

    @Option(name: .customLong("influx-db"), help: "InfluxDB 1.x database, or 2/3 bucket.")
    var influxDatabase = "playtrace"

    @Option(name: .customLong("influx-org"), help: "InfluxDB 2/3 organization.")
    var influxOrganization = "playtrace"

    @Option(name: .customLong("graphite"), help: "Graphite (carbon) plaintext address, host:port.")
    var graphite: String?

    @Option(name: .customLong("newrelic-key"), help: "New Relic license or insert key (Event and Metric APIs).")
    var newRelicKey: String?

    @Option(name: .customLong("newrelic-account"), help: "New Relic account id (for the Event API).")
    var newRelicAccount: String?

    @Option(name: .customLong("newrelic-region"), help: "New Relic region: us or eu.")
    var newRelicRegion = "us"

    @Option(name: .customLong("otlp"), help: "OpenTelemetry collector OTLP/HTTP base URL (http://host:4318): metrics, and playbacks as traces.")
    var otlpURL: String?

    @Option(name: .customLong("otlp-header"), help: "A header for OTLP exports, name=value (repeatable).")
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

    func validate() throws {
        if let influxURL, URL(string: influxURL)?.host == nil { throw ValidationError("--influx needs a URL such as http://127.0.0.1:8086") }
        if let otlpURL, URL(string: otlpURL)?.host == nil { throw ValidationError("--otlp needs a URL such as http://127.0.0.1:4318") }
        if otlpHeaders.contains(where: { !$0.contains("=") }) { throw ValidationError("--otlp-header is name=value") }
        if let graphite, TelemetrySetup.hostAndPort(graphite) == nil { throw ValidationError("--graphite needs host:port") }
        if newRelicKey != nil, newRelicAccount == nil { throw ValidationError("--newrelic-key needs --newrelic-account") }
        guard ["us", "eu"].contains(newRelicRegion) else { throw ValidationError("--newrelic-region is us or eu") }
        guard drainTimeout >= 0, drainTimeout <= 3_600 else {
            throw ValidationError("--drain-timeout must be between 0 and 3600 seconds")
        }
    }
}
