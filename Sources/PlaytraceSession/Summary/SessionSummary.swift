public import Foundation
import PlaytraceCore

/// The one machine-readable record of a viewer session (``ViewerSession``: `play`, `demo` or an app's): what
/// `--summary-json` writes and ``HTMLReport`` draws.
///
/// Data, not display text: numbers carry their unit in their key (`stallSeconds`, `latenessMilliseconds`), dates are
/// ISO 8601 in UTC, and times of the session count from its start on the session's clock (`atSeconds`; the demo's
/// clock runs `--speed` times faster than real time, and so do those times). `schemaVersion` changes whenever a
/// field changes meaning or goes away; `schemas/session-summary.schema.json` describes each field, and the tests
/// validate every summary they write against it.
public struct SessionSummary: Codable, Sendable {
    /// The version of this record's layout.
    public static let currentSchemaVersion = 1

    public var schemaVersion = Self.currentSchemaVersion
    /// What ran the session: `play`, `demo`, or the name an app gave (``ViewerSession/Configuration/command``).
    public var command: String
    /// When the session started and ended (ISO 8601, UTC, milliseconds).
    public var startedAt: String
    public var endedAt: String?
    /// How much faster than real time the session's clock ran (the demo's `--speed`; 1 for `play`).
    public var clockSpeed: Double = 1
    /// Whether the session reached its end: `false` when a second signal quit at once and this is what was known
    /// then (``incompleteReason`` says when).
    public var complete: Bool
    public var incompleteReason: String?
    public var succeeded: Bool
    public var verdict: Verdict
    /// Each item played, in order, as its tracker saw it at its end.
    public var items: [Item] = []
    /// The session metrics (CTA-2066) of each playback, when telemetry ran.
    public var qoe: [QoE] = []
    /// The ad tracking, when it ran.
    public var ads: Ads?
    public var timeline: Timeline = Timeline()
    public var requests: Requests = Requests()

    /// What the session's end said of it.
    public struct Verdict: Codable, Sendable {
        public var succeeded: Bool
        /// `played`, `stalled`, `failed` or `interrupted` (quit at once).
        public var playback: String
        /// Whether a signal ended the session.
        public var interrupted: Bool
        /// The verdict line as printed.
        public var line: String
        /// The shortfalls that fail the session, and those `--accept` let pass.
        public var reasons: [Finding]
        public var accepted: [Finding]
    }

    /// One shortfall: its kind (the `--accept` name) and what it was.
    public struct Finding: Codable, Sendable, Equatable {
        public var kind: String
        public var text: String
    }

    /// One item of the playlist.
    public struct Item: Codable, Sendable {
        public var title: String
        public var url: String
        /// `ended` (played to its end), `stopped` (the session stopped it) or `failed`.
        public var result: String
        public var failure: String?
        /// `onDemand`, `live` or `dvr`; `video` or `audio`.
        public var streamType: String
        public var mediaType: String
        /// From the item's media request to its first frame (StartTime); absent when no frame showed.
        public var startupSeconds: Double?
        /// Where the playhead was at the end.
        public var endPositionSeconds: Double
        public var stallCount: Int
        public var stallSeconds: Double
        public var variantSwitchCount: Int
        public var bytesReceived: Int
        public var requestCount: Int
        /// Media time played (seeks and skips leave holes); absent from summaries written before it was kept.
        public var playedSeconds: Double?
    }

    /// One playback's session metrics, as the telemetry's metricalc computed them (the Metrics article of
    /// PlaytraceTelemetry defines each).
    public struct QoE: Codable, Sendable {
        public var content: String
        public var startTimeMilliseconds: Double?
        public var stallCount: Int?
        public var stallDurationMilliseconds: Double?
        public var rebufferingRatio: Double?
        public var watchedTimeMilliseconds: Double?
        public var contentPlaybackTimeMilliseconds: Double?
        public var averageBitrateBitsPerSecond: Double?
        public var bitrateSwitchesUp: Int?
        public var bitrateSwitchesDown: Int?
        public var exitBeforeVideoStart: Int?
        public var playbackFailure: Int?
    }
}

extension SessionSummary {
    /// The summary of a session that quit at once: what was known at that moment, marked incomplete and failed.
    public static func quit(command: String, startedAt: String, reason: String) -> SessionSummary {
        SessionSummary(
            command: command, startedAt: startedAt, endedAt: ISO8601.now(), complete: false, incompleteReason: reason,
            succeeded: false,
            verdict: Verdict(succeeded: false, playback: "interrupted", interrupted: true,
                             line: "verdict: FAILED (interrupted) — " + reason,
                             reasons: [Finding(kind: "interrupted", text: reason)], accepted: []))
    }

    /// The JSON text: keys sorted, indented.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Reads a summary, refusing one of another schema version by name.
    public static func decode(_ data: Data) throws -> SessionSummary {
        let head = try SummaryHead.read(data)
        guard head.schemaVersion == currentSchemaVersion else {
            throw SummaryFileError.schemaVersion(found: head.schemaVersion)
        }
        return try JSONDecoder().decode(SessionSummary.self, from: data)
    }
}

/// What a summary file says of itself before it is read whole: its schema version and the command that wrote it
/// (`probe` for a ``ProbeSummary``, `play` or `demo` for a ``SessionSummary``).
public struct SummaryHead: Decodable, Sendable {
    public var schemaVersion: Int?
    public var command: String?

    /// The head of `data`; ``SummaryFileError/notJSON`` when it is no JSON object.
    public static func read(_ data: Data) throws -> SummaryHead {
        do {
            return try JSONDecoder().decode(SummaryHead.self, from: data)
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            throw SummaryFileError.notJSON
        } catch DecodingError.typeMismatch {
            throw SummaryFileError.schemaVersion(found: nil)
        }
    }
}

/// Why a summary file cannot be read.
public enum SummaryFileError: Error, CustomStringConvertible {
    case notJSON
    case schemaVersion(found: Int?)

    public var description: String {
        switch self {
        case .notJSON: "not JSON"
        case .schemaVersion(let found?):
            "a summary of schema version \(found); this playtrace reads version \(SessionSummary.currentSchemaVersion)"
        case .schemaVersion(nil): "not a playtrace session summary (no schemaVersion)"
        }
    }
}

/// ISO 8601 dates as the summary writes them: UTC, milliseconds.
public enum ISO8601 {
    public static func string(_ date: Date) -> String { StreamDate(date).iso8601Milliseconds }

    public static func now() -> String { string(Date()) }
}
