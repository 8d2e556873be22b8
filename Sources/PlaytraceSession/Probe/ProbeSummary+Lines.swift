import PlaytraceCore

extension ProbeSummary {
    /// The summary as the terminal shows it at the end: viewers, startup, playback, variants, requests, beacons, the
    /// worst viewers. The verdict's line is said apart, last.
    public var lines: [String] {
        var lines = ["Probe summary: \(PlainText.safe(url))"]
        let shard = population.shardCount > 1 ? ", shard \(population.shardIndex)/\(population.shardCount)" : ""
        lines.append("  population        \(population.size) viewer(s), seed \(population.seed)\(shard); ramp "
            + Format.seconds(population.rampSeconds) + ", then " + Format.seconds(population.durationSeconds)
            + " together; ran " + Format.seconds(population.elapsedSeconds))
        var viewerLine = "  viewers           \(viewers.started) started, \(viewers.ended) ended, \(viewers.failed) failed"
        if viewers.failedToStart > 0 { viewerLine += " (\(viewers.failedToStart) before playing)" }
        if viewers.neverStarted > 0 { viewerLine += ", \(viewers.neverStarted) never showed a frame" }
        if viewers.started < viewers.planned { viewerLine += "; \(viewers.planned - viewers.started) never started" }
        lines.append(viewerLine)
        lines.append("  startup           " + Self.describe(startup, of: "viewer"))
        var playbackLine = "  playback          " + Self.hours(playback.playedSeconds) + " played; \(playback.stallCount) stall(s)"
        if let perHour = playback.stallsPerViewerHour { playbackLine += String(format: " (%.2f per viewer-hour)", perHour) }
        playbackLine += ", " + Format.seconds(playback.stallSeconds) + " stalled"
        if let ratio = playback.rebufferingRatio { playbackLine += String(format: ", rebuffering ratio %.4f", ratio) }
        playbackLine += "; \(playback.variantSwitches) variant switch(es)"
        lines.append(playbackLine)
        if !variants.isEmpty {
            lines.append("  variants          " + variants.reversed().map {
                Format.bitrate(Double($0.bandwidthBitsPerSecond)) + String(format: " %.1f%%", $0.share * 100)
            }.joined(separator: ", "))
        }
        for kind in ProbeRequestCounter.Kind.allCases {
            guard let counts = requests[kind.rawValue], counts.requests > 0 else { continue }
            let outcomes = counts.outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            lines.append("  " + "\(kind.rawValue) requests".padding(toLength: 18, withPad: " ", startingAt: 0)
                + "\(counts.requests) (\(outcomes)), " + Format.bytes(counts.bytes))
        }
        let totals = beacons.totals
        if totals.expected + totals.fired > 0 {
            var line = "  beacons           \(totals.expected) expected, \(totals.fired) fired, \(totals.delivered) delivered, "
                + "\(totals.failed) failed"
            if totals.waiting > 0 { line += ", \(totals.waiting) waiting" }
            line += ", \(totals.late) late"
            if totals.missed > 0 { line += ", \(totals.missed) MISSED" }
            if totals.duplicated > 0 { line += ", \(totals.duplicated) duplicated" }
            if totals.unexpected > 0 { line += ", \(totals.unexpected) not called for" }
            lines.append(line)
            lines.append("  beacon lateness   " + Self.describe(beacons.lateness, of: "beacon"))
        }
        if !worst.isEmpty {
            lines.append("  worst viewers")
            for viewer in worst {
                lines.append("    #\(viewer.index) \(viewer.id): " + PlainText.safe(viewer.reason))
            }
        }
        return lines
    }

    private static func describe(_ distribution: Distribution, of what: String) -> String {
        guard distribution.count > 0, let p50 = distribution.p50Milliseconds, let p90 = distribution.p90Milliseconds,
              let p99 = distribution.p99Milliseconds, let max = distribution.maxMilliseconds
        else { return "none measured" }
        return String(format: "p50 %.0f ms, p90 %.0f ms, p99 %.0f ms, max %.0f ms", p50, p90, p99, max)
            + " (\(distribution.count) \(what)\(distribution.count == 1 ? "" : "s"))"
    }

    private static func hours(_ seconds: Double) -> String {
        seconds >= 3_600 ? String(format: "%.2f viewer-hours", seconds / 3_600) : Format.seconds(seconds) + " of media"
    }
}
