import PlaytraceCore
import PlaytraceHLS

extension InspectionReport {
    /// An interstitial of a media playlist with its attributes resolved: defaults made explicit, its place on the
    /// playlist's timeline from its date.
    struct InterstitialSummary: Codable {
        var id: String
        var startDate: String
        /// Seconds on the playlist's timeline (from the segments' dates); `nil` when no dated segment covers it.
        var position: Double?
        /// `pre-roll` (CUE=PRE), `mid-roll`, `post-roll` (CUE=POST); `once` when CUE has ONCE.
        var placement: String
        var asset: String
        var duration: Double?
        var resumeOffset: String
        var playoutLimit: Double?
        var snap: String
        var restrict: String
        var skipControl: String?
        var timelineOccupies: String
        var timelineStyle: String
        var contentMayVary: Bool
        var problems: [String]

        init(_ range: DateRange, _ interstitial: Interstitial, dates: ProgramDateTimeMap) {
            id = range.id
            startDate = range.startDate.iso8601Milliseconds
            position = dates.time(at: range.startDate)?.seconds
            placement = (range.cue.contains(.pre) ? "pre-roll" : range.cue.contains(.post) ? "post-roll" : "mid-roll")
                + (range.cue.contains(.once) ? ", once" : "")
            asset = interstitial.assetList.map { "asset list \($0)" } ?? interstitial.assetURI.map { "asset \($0)" } ?? "none"
            duration = (range.duration ?? range.plannedDuration)?.seconds
            resumeOffset = interstitial.resumeOffset.map { InspectionReport.fixed($0.seconds, 3) + " s" }
                ?? (range.cue.contains(.pre) ? "default: where the primary starts" : "default: what the interstitial plays")
            playoutLimit = interstitial.playoutLimit?.seconds
            snap = [interstitial.snap.contains(.out) ? "OUT" : nil, interstitial.snap.contains(.in) ? "IN" : nil]
                .compactMap { $0 }.joined(separator: ",")
            restrict = [interstitial.restrictions.contains(.skip) ? "SKIP" : nil,
                        interstitial.restrictions.contains(.jump) ? "JUMP" : nil].compactMap { $0 }.joined(separator: ",")
            skipControl = interstitial.skipControlOffset.map { offset in
                "from " + InspectionReport.fixed(offset.seconds, 3) + " s"
                    + (interstitial.skipControlDuration.map { " for " + InspectionReport.fixed($0.seconds, 3) + " s" } ?? "")
                    + (interstitial.skipControlLabelID.map { ", label \($0)" } ?? "")
            }
            timelineOccupies = interstitial.timelineOccupies ?? "POINT"
            timelineStyle = interstitial.timelineStyle ?? "HIGHLIGHT"
            contentMayVary = interstitial.contentMayVary ?? true
            problems = []
            if !interstitial.isValid { problems.append("needs exactly one of X-ASSET-URI and X-ASSET-LIST") }
            if range.cue.contains(.pre) && range.cue.contains(.post) { problems.append("CUE has both PRE and POST") }
            if position == nil, !range.cue.contains(.pre), !range.cue.contains(.post) {
                problems.append("no dated segment covers its START-DATE: a player cannot place it")
            }
        }

        var lines: [String] {
            var head = "  \(id)  \(placement)  \(startDate)"
            if let position { head += "  at " + InspectionReport.fixed(position, 3) + " s" }
            if let duration { head += "  for " + InspectionReport.fixed(duration, 3) + " s" }
            var out = [head, "      \(asset)", "      resume offset \(resumeOffset)"
                + (playoutLimit.map { ", playout limit " + InspectionReport.fixed($0, 3) + " s" } ?? "")]
            var rules: [String] = []
            if !snap.isEmpty { rules.append("snap \(snap)") }
            if !restrict.isEmpty { rules.append("restrict \(restrict)") }
            if let skipControl { rules.append("skip control \(skipControl)") }
            rules.append("timeline \(timelineOccupies) \(timelineStyle)")
            rules.append(contentMayVary ? "content may vary" : "content does not vary")
            out.append("      " + rules.joined(separator: ", "))
            for problem in problems { out.append("      problem: \(problem)") }
            return out
        }
    }
}
