public import Foundation
import PlaytraceCore

extension ProbeSummary {
    /// The summary of a probe's result.
    public init(_ result: ProbeResult, url: URL, population: ProbePopulation, duration: Duration, startedAt: String,
                complete: Bool) {
        let aggregate = result.aggregate
        self.url = URLRedaction.redacting(url.absoluteString)
        self.startedAt = startedAt
        endedAt = ISO8601.now()
        self.complete = complete
        succeeded = result.verdict.succeeded
        self.population = Population(size: population.size, seed: population.seed, shardIndex: population.shard.index,
                                     shardCount: population.shard.count, rampSeconds: population.ramp.seconds,
                                     durationSeconds: duration.seconds, spreadSeconds: population.spread.seconds,
                                     elapsedSeconds: result.elapsed.seconds)
        viewers = Viewers(planned: aggregate.planned, started: aggregate.started, ended: aggregate.ended,
                          failed: aggregate.failed, failedToStart: aggregate.failedToStart,
                          neverStarted: aggregate.neverStarted, shortfalls: aggregate.shortfalls)
        startup = Distribution(aggregate.startup)
        playback = Playback(playedSeconds: aggregate.playedSeconds, stallCount: aggregate.stallCount,
                            stallSeconds: aggregate.stallSeconds, stallsPerViewerHour: aggregate.stallsPerViewerHour,
                            rebufferingRatio: aggregate.rebufferingRatio, variantSwitches: aggregate.variantSwitches)
        let known = aggregate.variantSeconds.values.reduce(0, +)
        variants = aggregate.variantSeconds.sorted { $0.key < $1.key }.map { bandwidth, seconds in
            VariantShare(bandwidthBitsPerSecond: bandwidth, playedSeconds: seconds, share: known > 0 ? seconds / known : 0)
        }
        requests = Dictionary(uniqueKeysWithValues: result.requests.map { ($0.key.rawValue, $0.value) })
        beacons = Beacons(totals: aggregate.beacons, lateness: Distribution(aggregate.lateness))
        let verdict = result.verdict
        self.verdict = Verdict(
            succeeded: verdict.succeeded, interrupted: verdict.interrupted, line: verdict.line(aggregate),
            reasons: verdict.failing.map { SessionSummary.Finding(kind: $0.kind.rawValue, text: $0.text) },
            accepted: verdict.findings.filter { verdict.accepted.contains($0.kind) }
                .map { SessionSummary.Finding(kind: $0.kind.rawValue, text: $0.text) })
        worst = aggregate.worst.map {
            WorstViewer(index: $0.viewer.index, id: $0.viewer.id, reason: $0.reason, summary: $0.summary)
        }
    }
}

extension ProbeSummary.Distribution {
    init(_ distribution: LatencyDistribution) {
        count = distribution.count
        func milliseconds(_ value: Duration?) -> Double? { value.map { $0.seconds * 1_000 } }
        p50Milliseconds = milliseconds(distribution.percentile(50))
        p90Milliseconds = milliseconds(distribution.percentile(90))
        p99Milliseconds = milliseconds(distribution.percentile(99))
        maxMilliseconds = milliseconds(distribution.max)
    }
}
