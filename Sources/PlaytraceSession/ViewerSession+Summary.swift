import Foundation
import PlaytraceCore

extension ViewerSession {
    /// The session as known now, with `verdict`.
    func summary(verdict: SessionVerdict) -> SessionSummary {
        var summary = SessionSummary(command: configuration.command, startedAt: configuration.startedAt,
                                     endedAt: ISO8601.now(), complete: true,
                                     succeeded: verdict.succeeded, verdict: verdict.summary)
        fill(&summary)
        return summary
    }

    /// What the session knows of itself now: its clock's speed, items, QoE, ads, timeline and requests.
    private func fill(_ summary: inout SessionSummary) {
        summary.clockSpeed = (transport.stopwatch.clock as? ScaledClock)?.speed ?? 1
        summary.items = outcomes.items
        if let telemetry { summary.qoe = Self.qoe(telemetry.metricValues) }
        if let ads { summary.ads = ads.summary(sessionStart: ads.session.elapsed - transport.stopwatch.elapsed) }
        summary.timeline = recorder.timeline
        summary.requests = transport.requests
    }

    /// Gives ``Configuration/checkpoint`` what a process killed now would leave: the session as known now, marked
    /// incomplete and failed. Lighter than the full summary, as it is made every second: the timeline's samples and
    /// the list of requests are left out (their counts stay).
    func checkpoint(at playhead: MediaTime) {
        guard let checkpoint = configuration.checkpoint else { return }
        let reason = "quit at once by a second signal at \(playhead.timecode), before the session's end: this is what "
            + "was known then"
        var summary = SessionSummary.quit(command: configuration.command, startedAt: configuration.startedAt, reason: reason)
        fill(&summary)
        summary.timeline.samples = []
        summary.requests.omitted += summary.requests.listed.count
        summary.requests.listed = []
        checkpoint(summary)
    }

    /// The telemetry's session metrics, one record per playback: a metric already set for the content starts the
    /// next playback's record.
    static func qoe(_ values: [(content: String, name: String, value: Double)]) -> [SessionSummary.QoE] {
        var records: [SessionSummary.QoE] = []
        var seen: Set<String> = []
        for (content, name, value) in values {
            if records.last?.content != content || seen.contains(name) {
                records.append(SessionSummary.QoE(content: content))
                seen = []
            }
            seen.insert(name)
            let count = Int(saturating: value)
            switch name {
            case "StartTime": records[records.count - 1].startTimeMilliseconds = value
            case "StallCount": records[records.count - 1].stallCount = count
            case "StallDuration": records[records.count - 1].stallDurationMilliseconds = value
            case "RebufferingRatio": records[records.count - 1].rebufferingRatio = value
            case "WatchedTime": records[records.count - 1].watchedTimeMilliseconds = value
            case "ContentPlaybackTime": records[records.count - 1].contentPlaybackTimeMilliseconds = value
            case "AverageBitrate": records[records.count - 1].averageBitrateBitsPerSecond = value
            case "BitrateSwitchesUp": records[records.count - 1].bitrateSwitchesUp = count
            case "BitrateSwitchesDown": records[records.count - 1].bitrateSwitchesDown = count
            case "ExitBeforeVideoStart": records[records.count - 1].exitBeforeVideoStart = count
            case "PlaybackFailure": records[records.count - 1].playbackFailure = count
            default: break
            }
        }
        return records
    }
}

/// What a session produced: its summary (for machines, and the report's source) and its verdict.
public struct SessionResult: Sendable {
    /// The versioned summary (`schemas/session-summary.schema.json`); ``HTMLReport`` draws it.
    public private(set) var summary: SessionSummary
    public private(set) var verdict: SessionVerdict

    public init(summary: SessionSummary, verdict: SessionVerdict) {
        self.summary = summary
        self.verdict = verdict
    }

    /// Whether nothing failed (or only what was accepted).
    public var succeeded: Bool { verdict.succeeded }

    /// Adds a shortfall found after the session (a record that could not be written): the verdict and the summary's
    /// copy of it both say it.
    public mutating func add(_ finding: SessionVerdict.Finding) {
        verdict.findings.append(finding)
        summary.succeeded = verdict.succeeded
        summary.verdict = verdict.summary
    }
}
