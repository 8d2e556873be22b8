// PlaytraceBackends: InfluxDB, Graphite, New Relic, OpenTelemetry, JSON lines, Prometheus and swift-metrics
// backends for PlaytraceTelemetry, delivering through PlaytraceNetwork's Outbox. Laid out now so that the
// package has DESIGN.md's shape; its content arrives with the telemetry issue.
