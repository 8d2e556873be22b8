import ArgumentParser
import Foundation

/// The backends' credentials, for `play`, the demo and `outbox --deliver` alike: from the command line or, so that
/// they need not appear in the process list, the environment. They are configuration: the outbox never stores them,
/// and the couriers attach them when they deliver.
struct CredentialOptions: ParsableArguments {
    @Option(name: .customLong("influx-token"), help: """
        InfluxDB 2/3 token (uses /api/v2/write; without it, the 1.x /write API). Read from INFLUX_TOKEN when not \
        given, so that it need not appear in the process list.
        """)
    var influxToken: String?

    @Option(name: .customLong("newrelic-key"), help: """
        New Relic license or insert key (Event and Metric APIs). Read from NEW_RELIC_LICENSE_KEY when not given.
        """)
    var newRelicKey: String?

    @Option(name: .customLong("otlp-header"), help: """
        A header for OTLP exports, name=value (repeatable). OTEL_EXPORTER_OTLP_HEADERS (name=value pairs separated \
        by commas, values percent-encoded, as OpenTelemetry defines it) adds the headers not given here.
        """)
    var otlpHeaders: [String] = []

    /// The InfluxDB token: `--influx-token`, or `INFLUX_TOKEN`.
    var resolvedInfluxToken: String? { influxToken ?? Self.environment("INFLUX_TOKEN") }

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
        if otlpHeaders.contains(where: { !$0.contains("=") }) { throw ValidationError("--otlp-header is name=value") }
    }
}
