import PlaytraceCore

/// The probe's status as a line, every few seconds where no panel is drawn: where the ramp is, the viewers, startup
/// and lateness percentiles, failed requests.
public enum ProbeStatus {
    public static func line(_ progress: ProbeProgress) -> String {
        let aggregate = progress.aggregate
        var parts = [String(format: "%6.1f s", progress.elapsed.seconds)]
        if progress.ramp > .zero, (progress.elapsed < progress.ramp) {
            parts.append(String(format: "ramp %3.0f%%", progress.elapsed.seconds / progress.ramp.seconds * 100))
        } else if progress.isEnding {
            parts.append("ending")
        }
        parts.append("viewers \(aggregate.active) active, \(aggregate.started)/\(aggregate.planned) started, "
            + "\(aggregate.ended) ended, \(aggregate.failed) failed")
        if let p50 = aggregate.startup.percentile(50), let p99 = aggregate.startup.percentile(99) {
            parts.append("startup p50 \(Format.milliseconds(p50)) p99 \(Format.milliseconds(p99))")
        }
        if let p99 = aggregate.lateness.percentile(99) { parts.append("lateness p99 \(Format.milliseconds(p99))") }
        let failed = progress.requests.values.reduce(0) { $0 + $1.failed }
        if failed > 0 { parts.append("\(failed) failed request(s)") }
        return parts.joined(separator: "  ")
    }
}
