import Foundation
import PlaytraceCore

/// The one machine-readable record of a `play` or demo session: what `--summary-json` writes and `report` draws.
///
/// Data, not display text: numbers carry their unit in their key (`stallSeconds`, `latenessMilliseconds`), dates are
/// ISO 8601 in UTC, and times of the session count from its start on the session's clock (`atSeconds`; the demo's
/// clock runs `--speed` times faster than real time, and so do those times). `schemaVersion` changes whenever a
/// field changes meaning or goes away; `schemas/session-summary.schema.json` describes each field, and the tests
/// validate every summary they write against it.
struct SessionSummary: Codable, Sendable {
    /// The version of this record's layout.
    static let currentSchemaVersion = 1

    var schemaVersion = Self.currentSchemaVersion
    /// `play` or `demo`.
    var command: String
    /// When the session started and ended (ISO 8601, UTC, milliseconds).
    var startedAt: String
    var endedAt: String?
    /// How much faster than real time the session's clock ran (the demo's `--speed`; 1 for `play`).
    var clockSpeed: Double = 1
    /// Whether the session reached its end: `false` when a second signal quit at once and this is what was known
    /// then (``incompleteReason`` says when).
    var complete: Bool
    var incompleteReason: String?
    var succeeded: Bool
    var verdict: Verdict
    /// Each item played, in order, as its tracker saw it at its end.
    var items: [Item] = []
    /// The session metrics (CTA-2066) of each playback, when telemetry ran.
    var qoe: [QoE] = []
    /// The ad tracking, when it ran.
    var ads: Ads?
    var timeline: Timeline = Timeline()
    var requests: Requests = Requests()

    /// What the session's end said of it.
    struct Verdict: Codable, Sendable {
        var succeeded: Bool
        /// `played`, `stalled`, `failed` or `interrupted` (quit at once).
        var playback: String
        /// Whether a signal ended the session.
        var interrupted: Bool
        /// The verdict line as printed.
        var line: String
        /// The shortfalls that fail the session, and those `--accept` let pass.
        var reasons: [Finding]
        var accepted: [Finding]
    }

    /// One shortfall: its kind (the `--accept` name) and what it was.
    struct Finding: Codable, Sendable, Equatable {
        var kind: String
        var text: String
    }

    /// One item of the playlist.
    struct Item: Codable, Sendable {
        var title: String
        var url: String
        /// `ended` (played to its end), `stopped` (the session stopped it) or `failed`.
        var result: String
        var failure: String?
        /// `onDemand`, `live` or `dvr`; `video` or `audio`.
        var streamType: String
        var mediaType: String
        /// From the item's media request to its first frame (StartTime); absent when no frame showed.
        var startupSeconds: Double?
        /// Where the playhead was at the end.
        var endPositionSeconds: Double
        var stallCount: Int
        var stallSeconds: Double
        var variantSwitchCount: Int
        var bytesReceived: Int
        var requestCount: Int
    }

    /// One playback's session metrics, as the telemetry's metricalc computed them (the Metrics article of
    /// PlaytraceTelemetry defines each).
    struct QoE: Codable, Sendable {
        var content: String
        var startTimeMilliseconds: Double?
        var stallCount: Int?
        var stallDurationMilliseconds: Double?
        var rebufferingRatio: Double?
        var watchedTimeMilliseconds: Double?
        var contentPlaybackTimeMilliseconds: Double?
        var averageBitrateBitsPerSecond: Double?
        var bitrateSwitchesUp: Int?
        var bitrateSwitchesDown: Int?
        var exitBeforeVideoStart: Int?
        var playbackFailure: Int?
    }
}

extension SessionSummary {
    /// The summary of a session that quit at once: what was known at that moment, marked incomplete and failed.
    static func quit(command: String, startedAt: String, reason: String) -> SessionSummary {
        SessionSummary(
            command: command, startedAt: startedAt, endedAt: ISO8601.now(), complete: false, incompleteReason: reason,
            succeeded: false,
            verdict: Verdict(succeeded: false, playback: "interrupted", interrupted: true,
                             line: "verdict: FAILED (interrupted) — " + reason,
                             reasons: [Finding(kind: "interrupted", text: reason)], accepted: []))
    }

    /// The JSON text: keys sorted, indented.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Reads a summary, refusing one of another schema version by name.
    static func decode(_ data: Data) throws -> SessionSummary {
        struct Version: Decodable { var schemaVersion: Int? }
        let version: Int?
        do {
            version = try JSONDecoder().decode(Version.self, from: data).schemaVersion
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            throw SummaryFileError.notJSON
        } catch DecodingError.typeMismatch {
            throw SummaryFileError.schemaVersion(found: nil)
        }
        guard version == currentSchemaVersion else {
            throw SummaryFileError.schemaVersion(found: version)
        }
        return try JSONDecoder().decode(SessionSummary.self, from: data)
    }
}

/// Why a summary file cannot be read.
enum SummaryFileError: Error, CustomStringConvertible {
    case notJSON
    case schemaVersion(found: Int?)

    var description: String {
        switch self {
        case .notJSON: "not JSON"
        case .schemaVersion(let found?):
            "a summary of schema version \(found); this playtrace reads version \(SessionSummary.currentSchemaVersion)"
        case .schemaVersion(nil): "not a playtrace session summary (no schemaVersion)"
        }
    }
}

/// ISO 8601 dates as the summary writes them: UTC, milliseconds.
enum ISO8601 {
    static func string(_ date: Date) -> String { StreamDate(date).iso8601Milliseconds }

    static func now() -> String { string(Date()) }
}
