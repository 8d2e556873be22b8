import Foundation
import PlaytraceCore

extension PlaybackSession {
    /// The session as known now, for `--summary-json` and the report.
    func summary(verdict: SessionVerdict) -> SessionSummary {
        var summary = SessionSummary(command: command, startedAt: startedAt, endedAt: ISO8601.now(), complete: true,
                                     succeeded: verdict.succeeded, verdict: verdict.summary)
        fill(&summary)
        return summary
    }

    /// What the session knows of itself now: its clock's speed, items, QoE, ads, timeline and requests.
    private func fill(_ summary: inout SessionSummary) {
        summary.clockSpeed = (transport.stopwatch.clock as? ScaledClock)?.speed ?? 1
        summary.items = report.items
        if let telemetry { summary.qoe = Self.qoe(telemetry.metricValues) }
        if let ads { summary.ads = ads.summary(sessionStart: ads.session.elapsed - transport.stopwatch.elapsed) }
        summary.timeline = recorder.timeline
        summary.requests = transport.requests
    }

    /// Writes `--report`, then `--summary-json`, each whole (``AtomicFile``); a file that cannot be written is said,
    /// and fails the verdict. The summary comes last so that its verdict and `succeeded` are the run's final ones,
    /// a report that could not be written included.
    func writeRecords(verdict: inout SessionVerdict) {
        guard summaryJSONPath != nil || reportPath != nil else { return }
        // One summary for both files: `report SUMMARY.json` makes the very same report again.
        var summary = summary(verdict: verdict)
        if let reportPath {
            do {
                try AtomicFile.write(HTMLReport(summary).document, to: reportPath)
                output.message("report: \(reportPath)")
            } catch {
                output.message(CommandFailure("--report \(reportPath)", error: error).description)
                verdict.findings.append(.init(kind: .reportFile, text: "--report could not be written"))
                summary.succeeded = verdict.succeeded
                summary.verdict = verdict.summary
            }
        }
        if let summaryJSONPath {
            do {
                try AtomicFile.write(summary.encoded(), to: summaryJSONPath)
            } catch {
                output.message(CommandFailure("--summary-json \(summaryJSONPath)", error: error).description)
                verdict.findings.append(.init(kind: .summaryFile, text: "--summary-json could not be written"))
            }
        }
    }

    /// Keeps what a second signal (quit at once) writes to `--summary-json`: the session as known now, marked
    /// incomplete and failed. Lighter than the full summary, as it is made every second: the timeline's samples and
    /// the list of requests are left out (their counts stay).
    func keepLastWords(at playhead: MediaTime) {
        guard let interruption, let path = summaryJSONPath else { return }
        let reason = "quit at once by a second signal at \(playhead.timecode), before the session's end: this is what "
            + "was known then"
        var summary = SessionSummary.quit(command: command, startedAt: startedAt, reason: reason)
        fill(&summary)
        summary.timeline.samples = []
        summary.requests.omitted += summary.requests.listed.count
        summary.requests.listed = []
        guard let data = try? summary.encoded() else { return }
        interruption.writeOnQuit(data, to: path)
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
