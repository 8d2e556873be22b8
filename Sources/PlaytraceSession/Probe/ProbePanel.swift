import PlaytraceCore

/// The probe's live panel on a terminal, redrawn every second: a bar of the run (the ramp, then the time together),
/// the viewers, startup and beacon lateness percentiles, beacons, requests by kind with what failed, and the worst
/// viewers so far. Where no terminal is, ``ProbeStatus`` says the same in one line every few seconds.
///
/// Startup counts as each first frame shows; beacons, lateness and playback count as each viewer ends.
public enum ProbePanel {
    /// The width of the run's bar, in characters.
    static let barWidth = 40
    /// How many of the worst viewers the panel names.
    static let worstShown = 3

    public static func lines(_ progress: ProbeProgress) -> [String] {
        let aggregate = progress.aggregate
        var lines = ["probe " + bar(progress) + " " + phase(progress)]
        var viewers = "viewers   \(aggregate.active) active · \(aggregate.started)/\(aggregate.planned) started · "
            + "\(aggregate.startup.count) showed a frame · \(aggregate.ended) ended · \(aggregate.failed) failed"
        if aggregate.failedToStart > 0 { viewers += " (\(aggregate.failedToStart) before playing)" }
        lines.append(viewers)
        lines.append("startup   " + percentiles(aggregate.startup))
        let beacons = aggregate.beacons
        if beacons.expected + beacons.fired > 0 {
            lines.append("beacons   \(beacons.expected) expected · \(beacons.fired) fired · \(beacons.delivered) delivered · "
                + "\(beacons.late) late · \(beacons.missed) missed · \(beacons.duplicated) duplicated (viewers ended)")
            lines.append("lateness  " + percentiles(aggregate.lateness))
        }
        var requests: [String] = []
        var failures: [String: Int] = [:]
        for kind in ProbeRequestCounter.Kind.allCases {
            guard let counts = progress.requests[kind], counts.requests > 0 else { continue }
            requests.append("\(counts.requests) \(kind.rawValue)")
            for (outcome, count) in counts.outcomes where ProbeRequestCounter.Counts.isFailure(outcome) {
                failures[outcome, default: 0] += count
            }
        }
        if !requests.isEmpty {
            lines.append("requests  " + requests.joined(separator: " · "))
        }
        if !failures.isEmpty {
            lines.append("failed    " + failures.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
                .map { "\($0.key) ×\($0.value)" }.joined(separator: " · "))
        }
        for viewer in aggregate.worst.prefix(worstShown) where viewer.fellShort {
            lines.append("worst     #\(viewer.viewer.index): " + PlainText.safe(viewer.reason))
        }
        return lines
    }

    /// `[████████▓▓▓▓░░░░]`: the ramp's part, then the time together, against the whole run.
    private static func bar(_ progress: ProbeProgress) -> String {
        let total = (progress.ramp + progress.duration).seconds
        guard total > 0 else { return "" }
        let elapsed = min(progress.elapsed.seconds / total, 1)
        let rampShare = progress.ramp.seconds / total
        let done = cells(elapsed)
        let ramping = min(done, cells(rampShare))
        return "[" + String(repeating: "▓", count: ramping) + String(repeating: "█", count: done - ramping)
            + String(repeating: "░", count: barWidth - done) + "]"
    }

    private static func phase(_ progress: ProbeProgress) -> String {
        let elapsed = progress.elapsed.seconds
        if progress.isEnding { return String(format: "ending at %.0f s", elapsed) }
        if elapsed < progress.ramp.seconds {
            return String(format: "ramp %.0f/%.0f s", elapsed, progress.ramp.seconds)
        }
        return String(format: "together %.0f/%.0f s", elapsed - progress.ramp.seconds, progress.duration.seconds)
    }

    private static func percentiles(_ distribution: LatencyDistribution) -> String {
        guard let p50 = distribution.percentile(50), let p90 = distribution.percentile(90),
              let p99 = distribution.percentile(99), let max = distribution.max else { return "none yet" }
        return "p50 \(Format.milliseconds(p50)) · p90 \(Format.milliseconds(p90)) · p99 \(Format.milliseconds(p99)) · "
            + "max \(Format.milliseconds(max)) (\(distribution.count))"
    }

    private static func cells(_ fraction: Double) -> Int {
        guard fraction.isFinite else { return 0 }
        return Int((min(max(fraction, 0), 1) * Double(barWidth)).rounded())
    }
}
