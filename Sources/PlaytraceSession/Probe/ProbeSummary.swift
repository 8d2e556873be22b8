public import Foundation
import PlaytraceCore

/// The one machine-readable record of a probe (`playtrace probe --summary-json`): its population, what its viewers
/// went through as distributions and totals, its requests, beacons and verdict, and the worst viewers with their own
/// session summaries. `schemas/probe-summary.schema.json` describes each field.
///
/// Numbers carry their unit in their key; percentiles are of the viewers (startup) or of the beacons (lateness), from
/// HdrHistograms with three significant digits.
public struct ProbeSummary: Codable, Sendable {
    public static let currentSchemaVersion = 1

    public var schemaVersion = Self.currentSchemaVersion
    public var command = "probe"
    /// The stream, its credentials left out.
    public var url: String
    public var startedAt: String
    public var endedAt: String
    /// Whether the probe ran to its end (false: interrupted, or quit at once by a second signal).
    public var complete: Bool
    public var succeeded: Bool
    public var population: Population
    public var viewers: Viewers
    public var startup: Distribution
    public var playback: Playback
    public var variants: [VariantShare]
    /// By kind: `playlist`, `segment`, `metadata`, `beacon`, `telemetry`.
    public var requests: [String: ProbeRequestCounter.Counts]
    public var beacons: Beacons
    public var verdict: Verdict
    /// The worst viewers, worst first.
    public var worst: [WorstViewer]

    public struct Population: Codable, Sendable {
        /// The whole population's size, and the part this process ran (`--shard I/N`).
        public var size: Int
        public var seed: UInt64
        public var shardIndex: Int
        public var shardCount: Int
        public var rampSeconds: Double
        public var durationSeconds: Double
        public var spreadSeconds: Double
        /// How long the probe ran.
        public var elapsedSeconds: Double
    }

    public struct Viewers: Codable, Sendable {
        public var planned: Int
        public var started: Int
        public var ended: Int
        public var failed: Int
        public var failedToStart: Int
        public var neverStarted: Int
        /// How many viewers fell short in each way (`missed`, `stalled`…).
        public var shortfalls: [String: Int]
    }

    /// A distribution in milliseconds; the percentiles are absent when nothing was counted.
    public struct Distribution: Codable, Sendable {
        public var count: Int
        public var p50Milliseconds: Double?
        public var p90Milliseconds: Double?
        public var p99Milliseconds: Double?
        public var maxMilliseconds: Double?

        init(_ distribution: LatencyDistribution) {
            count = distribution.count
            func milliseconds(_ value: Duration?) -> Double? { value.map { $0.seconds * 1_000 } }
            p50Milliseconds = milliseconds(distribution.percentile(50))
            p90Milliseconds = milliseconds(distribution.percentile(90))
            p99Milliseconds = milliseconds(distribution.percentile(99))
            maxMilliseconds = milliseconds(distribution.max)
        }
    }

    public struct Playback: Codable, Sendable {
        public var playedSeconds: Double
        public var stallCount: Int
        public var stallSeconds: Double
        public var stallsPerViewerHour: Double?
        public var rebufferingRatio: Double?
        public var variantSwitches: Int
    }

    /// The time played at one variant, all viewers together.
    public struct VariantShare: Codable, Sendable {
        public var bandwidthBitsPerSecond: Int
        public var playedSeconds: Double
        /// Of all the time played at a known variant.
        public var share: Double
    }

    public struct Beacons: Codable, Sendable {
        public var totals: ProbeAggregate.BeaconTotals
        /// From the playhead's crossing to the response, of every beacon delivered.
        public var lateness: Distribution
    }

    public struct Verdict: Codable, Sendable {
        public var succeeded: Bool
        public var interrupted: Bool
        public var line: String
        public var reasons: [SessionSummary.Finding]
        public var accepted: [SessionSummary.Finding]
    }

    public struct WorstViewer: Codable, Sendable {
        public var index: Int
        public var id: String
        public var reason: String
        /// Its own session summary (`schemas/session-summary.schema.json`); absent when it failed before playing.
        public var summary: SessionSummary?
    }
}

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

    /// A probe summary file read back (for `playtrace report`): ``SummaryFileError`` when it is no JSON or of another
    /// schema version, a `DecodingError` naming the field when a field is not what it should be.
    public static func decode(_ data: Data) throws -> ProbeSummary {
        let head = try SummaryHead.read(data)
        guard head.schemaVersion == currentSchemaVersion else {
            throw SummaryFileError.schemaVersion(found: head.schemaVersion)
        }
        return try JSONDecoder().decode(ProbeSummary.self, from: data)
    }

    /// The JSON text: keys sorted, indented.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
