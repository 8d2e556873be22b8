import ArgumentParser
import Foundation
import PlaytraceBackends
import PlaytraceCore
import PlaytraceSession

/// Where `play` and the demo send telemetry.
struct TelemetryOptions: ParsableArguments {
    @OptionGroup var credentials: CredentialOptions

    @Option(name: .customLong("influx"), help: "InfluxDB base URL (http://host:8086): events and metrics in line protocol.")
    var influxURL: String?

    @Option(name: .customLong("influx-db"), help: "InfluxDB 1.x database, or 2/3 bucket.")
    var influxDatabase = "playtrace"

    @Option(name: .customLong("influx-org"), help: "InfluxDB 2/3 organization.")
    var influxOrganization = "playtrace"

    @Option(name: .customLong("graphite"), help: "Graphite (carbon) plaintext address, host:port.")
    var graphite: String?

    @Option(name: .customLong("newrelic-account"), help: "New Relic account id (for the Event API).")
    var newRelicAccount: String?

    @Option(name: .customLong("newrelic-region"), help: "New Relic region: us or eu.")
    var newRelicRegion = "us"

    @Option(name: .customLong("otlp"), help: "OpenTelemetry collector OTLP/HTTP base URL (http://host:4318): metrics, and playbacks as traces.")
    var otlpURL: String?

    @Option(name: .customLong("jsonl"), help: "Append events and metrics to this file, one JSON object per line (put in place whole when the session ends).")
    var jsonLinesPath: String?

    @Option(name: .customLong("outbox"), help: "The outbox file (SQLite) that keeps undelivered telemetry across runs.")
    var outboxPath: String?

    @Flag(name: .customLong("telemetry-console"), help: "Print every telemetry event and metric.")
    var console = false

    @Option(name: .customLong("drain-timeout"),
            help: "At the end of a session, the most seconds spent delivering the telemetry still waiting.")
    var drainTimeout: Double = 10

    /// InfluxDB's API: v2 with a token (`--influx-token`, `INFLUX_TOKEN`), v1 otherwise.
    var influxAPI: InfluxDBBackend.Configuration.API {
        credentials.resolvedInfluxToken.map { .v2(organization: influxOrganization, bucket: influxDatabase, token: $0) }
            ?? .v1(database: influxDatabase)
    }

    /// The New Relic key: `--newrelic-key`, or `NEW_RELIC_LICENSE_KEY`.
    var resolvedNewRelicKey: String? { credentials.resolvedNewRelicKey }

    /// The OTLP headers: `--otlp-header`, then those of `OTEL_EXPORTER_OTLP_HEADERS` not given on the command line.
    var resolvedOTLPHeaders: [String: String] { credentials.resolvedOTLPHeaders }

    /// The InfluxDB backend's configuration, when `--influx` is given.
    var influxConfiguration: InfluxDBBackend.Configuration? {
        influxURL.flatMap { URL(string: $0) }.map { InfluxDBBackend.Configuration(url: $0, api: influxAPI) }
    }

    /// The New Relic backend's configuration, when `--newrelic-account` and a key are given.
    var newRelicConfiguration: NewRelicBackend.Configuration? {
        guard let key = resolvedNewRelicKey, let account = newRelicAccount else { return nil }
        return .init(accountID: account, apiKey: key, region: newRelicRegion == "eu" ? .eu : .us)
    }

    /// The OTLP backend's configuration, when `--otlp` is given.
    var otlpConfiguration: OTLPBackend.Configuration? {
        guard let url = otlpURL.flatMap({ URL(string: $0) }) else { return nil }
        var configuration = OTLPBackend.Configuration(endpoint: url)
        for (name, value) in resolvedOTLPHeaders { configuration.headers[name] = value }
        return configuration
    }

    /// The settings of the session's telemetry.
    var settings: SessionTelemetry.Settings {
        var settings = SessionTelemetry.Settings()
        settings.influx = influxConfiguration
        settings.graphite = graphite.flatMap(SessionTelemetry.hostAndPort)
        settings.newRelic = newRelicConfiguration
        settings.otlp = otlpConfiguration
        settings.jsonLinesPath = jsonLinesPath
        settings.console = console
        settings.outboxPath = outboxPath
        settings.drainTimeout = .saturating(milliseconds: drainTimeout * 1_000)
        return settings
    }

    /// A warning of the telemetry's set-up (InfluxDB's database could not be created), on standard error.
    @Sendable static func warn(_ text: String) {
        StandardStreams.writeError(PlainText.safe("warning: " + text) + "\n")
    }

    func validate() throws {
        if let jsonLinesPath { try WritablePath.check(jsonLinesPath, option: "--jsonl", appending: true) }
        if let influxURL, URL(string: influxURL)?.host == nil { throw ValidationError("--influx needs a URL such as http://127.0.0.1:8086") }
        if let otlpURL, URL(string: otlpURL)?.host == nil { throw ValidationError("--otlp needs a URL such as http://127.0.0.1:4318") }
        if let graphite, SessionTelemetry.hostAndPort(graphite) == nil { throw ValidationError("--graphite needs host:port") }
        if credentials.newRelicKey != nil, newRelicAccount == nil { throw ValidationError("--newrelic-key needs --newrelic-account") }
        if newRelicAccount != nil, resolvedNewRelicKey == nil {
            throw ValidationError("--newrelic-account needs a key: --newrelic-key or NEW_RELIC_LICENSE_KEY")
        }
        guard ["us", "eu"].contains(newRelicRegion) else { throw ValidationError("--newrelic-region is us or eu") }
        guard drainTimeout >= 0, drainTimeout <= 3_600 else {
            throw ValidationError("--drain-timeout must be between 0 and 3600 seconds")
        }
    }
}
