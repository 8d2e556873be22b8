public import Foundation
import PlaytraceCore

/// The one machine-readable record of a probe (`playtrace probe --summary-json`): its population, what its viewers
/// went through as distributions and totals, its requests, beacons and verdict, and the worst viewers with their own
/// session summaries. `schemas/probe-summary.schema.json` describes each field.
///
/// Numbers carry their unit in their key; percentiles are of the viewers (startup) or of the beacons (lateness), from
/// HdrHistograms with three significant digits. The model and its decoding stand alone (a summary file is read by
/// `playtrace report`, and fuzzed); it is made from a probe's result in `ProbeSummary+Result.swift`.
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
    public var requests: [String: ProbeRequestCounts]
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
        public var totals: ProbeBeaconTotals
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
