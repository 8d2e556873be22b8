/// What a session's end says of it in one line: whether it did what it should — playback (played, stalled or failed)
/// and ad tracking (every beacon the played media called for fired once and was delivered) and telemetry — and why
/// not. The exit status and `--summary-json`'s `succeeded` follow it.
public struct SessionVerdict: Sendable {
    /// How playback went.
    public enum Playback: String, Sendable {
        /// Every item played (to its end, or to where the session stopped) without a stall.
        case played
        /// Every item played, with rebuffering.
        case stalled
        /// An item failed.
        case failed
    }

    /// A way a session falls short. Each fails the session unless `--accept` names it.
    public enum Shortfall: String, CaseIterable, Sendable {
        /// An item failed to play.
        case playbackFailed = "playback-failed"
        /// The session stalled: nothing was shown, or `--duration` was not reached within its wall-clock allowance.
        case stalled
        /// Beacons that the media played called for and that did not fire.
        case missed
        /// Beacons that the media played called for and that an earlier run on the same outbox fired (the same SSAI
        /// session again): this run did not fire them.
        case earlierRun = "earlier-run"
        /// Ad tracking that could not work: none of its metadata requests succeeded.
        case adMetadata = "ad-metadata"
        /// Beacons fired that nothing played called for.
        case unexpected
        /// Beacons fired more than once.
        case duplicated
        /// Beacons whose delivery failed for good.
        case failed
        /// Beacons still waiting for delivery at the end.
        case waiting
        /// Beacons delivered more than a second after their crossing.
        case late
        /// The outbox file was deleted, replaced, truncated or no longer writable while in use.
        case outbox
        /// VAST error reports: ads that could not be played.
        case vastErrors = "vast-errors"
        /// Telemetry that was refused, lost, still waiting for its destination at the end, or whose destination
        /// stopped taking it.
        case telemetry
        /// The `--summary-json` file could not be written.
        case summaryFile = "summary-file"
        /// The `--report` file could not be written.
        case reportFile = "report-file"
    }

    /// One shortfall found, in words.
    public struct Finding: Sendable {
        public var kind: Shortfall
        public var text: String

        public init(kind: Shortfall, text: String) {
            self.kind = kind
            self.text = text
        }
    }

    public var playback: Playback
    /// The playback part of the line ("played to the end", "failed: …").
    public var playbackText: String
    /// The ad tracking part, when ads were tracked.
    public var adsText: String?
    public var findings: [Finding] = []
    /// The shortfalls that do not fail the session (`--accept`).
    public var accepted: Set<Shortfall> = []
    /// Whether the session was ended by a signal.
    public var interrupted = false

    /// The findings that fail the session.
    public var failing: [Finding] { findings.filter { !accepted.contains($0.kind) } }
    /// The findings that `--accept` let pass.
    public var excused: [Finding] { findings.filter { accepted.contains($0.kind) } }

    public var succeeded: Bool { failing.isEmpty }

    /// The line: `verdict: OK — …` or `verdict: FAILED — …; reasons`.
    public var line: String {
        var parts = ["playback " + playbackText]
        if let adsText { parts.append("ads: " + adsText) }
        var line = "verdict: " + (succeeded ? "OK" : "FAILED") + (interrupted ? " (interrupted)" : "") + " — "
            + parts.joined(separator: "; ")
        let failing = failing.filter { $0.kind != .playbackFailed }.map(\.text)
        if !failing.isEmpty { line += "; " + failing.joined(separator: ", ") }
        let excused = excused.map(\.text)
        if !excused.isEmpty { line += " (accepted: " + excused.joined(separator: ", ") + ")" }
        return line
    }

    /// For the session summary.
    public var summary: SessionSummary.Verdict {
        SessionSummary.Verdict(
            succeeded: succeeded, playback: playback.rawValue, interrupted: interrupted, line: line,
            reasons: failing.map { SessionSummary.Finding(kind: $0.kind.rawValue, text: $0.text) },
            accepted: excused.map { SessionSummary.Finding(kind: $0.kind.rawValue, text: $0.text) })
    }
}

extension SessionVerdict {
    /// What one item's tracker saw at its end.
    public struct ItemOutcome: Sendable {
        public var title: String
        public var failure: String?
        /// Whether its first frame showed.
        public var started: Bool
        public var ended: Bool
        public var stallCount: Int
        /// Seconds.
        public var stallDuration: Double
    }

    /// The playback part, from the items' outcomes.
    public init(items: [ItemOutcome], accepted: Set<Shortfall>) {
        self.accepted = accepted
        let failed = items.filter { $0.failure != nil }
        let stalls = items.reduce(0) { $0 + $1.stallCount }
        let stalled = items.reduce(0.0) { $0 + $1.stallDuration }
        let many = items.count > 1
        if let first = failed.first {
            playback = .failed
            let which = many ? "\(failed.count) of \(items.count) items failed (\(first.title): " : "failed ("
            playbackText = which + (first.failure ?? "") + ")"
            findings.append(Finding(kind: .playbackFailed, text: playbackText))
        } else {
            playback = stalls > 0 ? .stalled : .played
            if !items.contains(where: \.started) {
                // Stopped (a signal, the wall-clock limit) before anything showed: nothing played.
                playback = .stalled
                playbackText = "never started"
                findings.append(Finding(kind: .stalled, text: "no frame was shown"))
                return
            } else if items.allSatisfy(\.ended) {
                playbackText = many ? "played all \(items.count) items to the end" : "played to the end"
            } else {
                playbackText = many ? "played \(items.count) items" : "played"
            }
            playbackText += stalls > 0 ? " with \(stalls) stall(s) (\(Format.seconds(stalled)))" : ", no stall"
        }
    }
}
