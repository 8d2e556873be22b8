import PlaytraceCore
import PlaytraceHLS

extension InspectionReport {
    /// An interstitial of a media playlist with its attributes resolved: defaults made explicit, its place on the
    /// playlist's timeline from its date.
    struct InterstitialSummary: Codable {
        var id: String
        var startDate: String
        /// Seconds on the playlist's timeline (from the segments' dates); absent when no dated segment covers it.
        var positionSeconds: Double?
        /// `pre-roll` (CUE=PRE), `mid-roll` or `post-roll` (CUE=POST).
        var placement: String
        /// CUE has ONCE: played once per session, not again on a seek back.
        var once: Bool
        var assetURI: String?
        var assetListURI: String?
        /// `DURATION`, else `PLANNED-DURATION`.
        var durationSeconds: Double?
        /// `X-RESUME-OFFSET`; absent when the playlist leaves the default (a pre-roll resumes where the primary
        /// starts, any other interstitial after what it played).
        var resumeOffsetSeconds: Double?
        var playoutLimitSeconds: Double?
        /// `X-SNAP`: `OUT`, `IN`.
        var snap: [String]
        /// `X-RESTRICT`: `SKIP`, `JUMP`.
        var restrict: [String]
        var skipControl: InspectJSON.SkipControl?
        /// `X-TIMELINE-OCCUPIES`, `POINT` by default.
        var timelineOccupies: String
        /// `X-TIMELINE-STYLE`, `HIGHLIGHT` by default.
        var timelineStyle: String
        /// `X-CONTENT-MAY-VARY`, true by default.
        var contentMayVary: Bool
        var problems: [String]

        init(_ range: DateRange, _ interstitial: Interstitial, dates: ProgramDateTimeMap) {
            id = range.id
            startDate = range.startDate.iso8601Milliseconds
            positionSeconds = dates.time(at: range.startDate)?.seconds
            placement = range.cue.contains(.pre) ? "pre-roll" : range.cue.contains(.post) ? "post-roll" : "mid-roll"
            once = range.cue.contains(.once)
            assetURI = interstitial.assetURI
            assetListURI = interstitial.assetList
            durationSeconds = (range.duration ?? range.plannedDuration)?.seconds
            resumeOffsetSeconds = interstitial.resumeOffset?.seconds
            playoutLimitSeconds = interstitial.playoutLimit?.seconds
            snap = [interstitial.snap.contains(.out) ? "OUT" : nil, interstitial.snap.contains(.in) ? "IN" : nil]
                .compactMap { $0 }
            restrict = [interstitial.restrictions.contains(.skip) ? "SKIP" : nil,
                        interstitial.restrictions.contains(.jump) ? "JUMP" : nil].compactMap { $0 }
            skipControl = interstitial.skipControlOffset.map { offset in
                InspectJSON.SkipControl(offsetSeconds: offset.seconds, durationSeconds: interstitial.skipControlDuration?.seconds,
                                        labelID: interstitial.skipControlLabelID)
            }
            timelineOccupies = interstitial.timelineOccupies ?? "POINT"
            timelineStyle = interstitial.timelineStyle ?? "HIGHLIGHT"
            contentMayVary = interstitial.contentMayVary ?? true
            problems = []
            if !interstitial.isValid { problems.append("needs exactly one of X-ASSET-URI and X-ASSET-LIST") }
            if range.cue.contains(.pre) && range.cue.contains(.post) { problems.append("CUE has both PRE and POST") }
            if positionSeconds == nil, !range.cue.contains(.pre), !range.cue.contains(.post) {
                problems.append("no dated segment covers its START-DATE: a player cannot place it")
            }
        }

        var lines: [String] {
            var head = "  \(id)  \(placement)" + (once ? ", once" : "") + "  \(startDate)"
            if let positionSeconds { head += "  at " + InspectionReport.fixed(positionSeconds, 3) + " s" }
            if let durationSeconds { head += "  for " + InspectionReport.fixed(durationSeconds, 3) + " s" }
            let asset = assetListURI.map { "asset list \($0)" } ?? assetURI.map { "asset \($0)" } ?? "none"
            let resumeOffset = resumeOffsetSeconds.map { InspectionReport.fixed($0, 3) + " s" }
                ?? (placement == "pre-roll" ? "default: where the primary starts" : "default: what the interstitial plays")
            var out = [head, "      \(asset)", "      resume offset \(resumeOffset)"
                + (playoutLimitSeconds.map { ", playout limit " + InspectionReport.fixed($0, 3) + " s" } ?? "")]
            var rules: [String] = []
            if !snap.isEmpty { rules.append("snap " + snap.joined(separator: ",")) }
            if !restrict.isEmpty { rules.append("restrict " + restrict.joined(separator: ",")) }
            if let skipControl { rules.append("skip control \(skipControl.text)") }
            rules.append("timeline \(timelineOccupies) \(timelineStyle)")
            rules.append(contentMayVary ? "content may vary" : "content does not vary")
            out.append("      " + rules.joined(separator: ", "))
            for problem in problems { out.append("      problem: \(problem)") }
            return out
        }
    }
}
