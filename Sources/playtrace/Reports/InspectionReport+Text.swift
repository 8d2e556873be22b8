import Foundation

extension InspectionReport {
    /// The report for people: one fact a line; long lists are cut with a count of what was left out.
    var lines: [String] {
        var out = ["\(source): \(kind) playlist, \(bytes) bytes" + (version.map { ", version \($0)" } ?? "")]
        if let start {
            out.append("start: \(start.timeOffsetSeconds) s" + (start.precise ? ", precise" : ""))
        }
        if kind == "multivariant" {
            multivariantLines(into: &out)
        } else {
            mediaLines(into: &out)
        }
        if !unknownTags.isEmpty { out.append("unknown tags kept: \(unknownTags.count)") }
        out.append(problems.isEmpty ? "problems: none" : "problems (\(problems.count)):")
        for problem in problems { out.append("  \(problem)") }
        return out
    }

    private func multivariantLines(into out: inout [String]) {
        out.append("variants (\(variants.count)):")
        for variant in variants {
            var line = "  \(variant.bandwidthBitsPerSecond) bit/s" + (variant.resolution.map { "  \($0)" } ?? "")
            if !variant.codecs.isEmpty { line += "  " + variant.codecs.joined(separator: ",") }
            if let range = variant.videoRange { line += "  \(range)" }
            if let hdcp = variant.hdcpLevel { line += "  HDCP \(hdcp)" }
            if let pathway = variant.pathwayID { line += "  pathway \(pathway)" }
            out.append(line + "  \(variant.uri)")
        }
        if !iFrameVariants.isEmpty {
            out.append("I-frame variants (\(iFrameVariants.count)):")
            for variant in iFrameVariants {
                out.append("  \(variant.bandwidthBitsPerSecond) bit/s" + (variant.resolution.map { "  \($0)" } ?? "") + "  \(variant.uri)")
            }
        }
        if !renditions.isEmpty {
            out.append("renditions (\(renditions.count)):")
            for rendition in renditions {
                out.append("  \(rendition.type) \(rendition.group) \"\(rendition.name)\"" + (rendition.language.map { " \($0)" } ?? "")
                    + (rendition.isDefault ? " default" : ""))
            }
        }
        if let steering = contentSteering {
            out.append("content steering: \(steering.serverURI)" + (steering.pathwayID.map { ", first pathway \($0)" } ?? ""))
            for (pathway, uris) in steering.pathways.sorted(by: { $0.key < $1.key }) {
                out.append("  pathway \(pathway == "." ? "(none)" : pathway): \(uris.count) variant(s)")
            }
        }
        for data in sessionData { out.append("session data: \(data.dataID)=\(data.value ?? data.uri ?? "")") }
    }

    private func mediaLines(into out: inout [String]) {
        out.append("segments: \(segmentCount ?? 0), total \(Self.fixed(totalDurationSeconds ?? 0, 3)) s, target \(targetDurationSeconds ?? 0) s, media sequence \(mediaSequence ?? 0)"
            + (playlistType.map { ", type \($0)" } ?? "") + endState)
        if let firstDate, let lastDate { out.append("dates: \(firstDate) → \(lastDate)") }
        if let discontinuities, discontinuities > 0 { out.append("discontinuities: \(discontinuities)") }
        if let gaps, gaps > 0 { out.append("gaps: \(gaps)") }
        if let byteRangeSegments, byteRangeSegments > 0 { out.append("byte ranges: \(byteRangeSegments) segments") }
        Self.list(keys, title: "encryption", into: &out) { key in
            "  \(key.method)" + (key.keyFormat.map { " (\($0))" } ?? "") + (key.uri.map { " \($0)" } ?? "")
                + " for segments \(key.firstSequence)–\(key.lastSequence)"
        }
        Self.list(maps, title: "initialization sections", into: &out) { map in
            "  \(map.uri)" + (map.byteRange.map { " bytes \($0.serialized)" } ?? "") + " for segments \(map.firstSequence)–\(map.lastSequence)"
        }
        if let lowLatency {
            var line = "low latency:"
            if let target = lowLatency.partTargetSeconds { line += " part target \(target) s," }
            line += " \(lowLatency.parts) parts"
            if let control = lowLatency.serverControl {
                var features: [String] = []
                if control.canBlockReload { features.append("blocking reload") }
                if let skip = control.canSkipUntilSeconds { features.append("skip until \(skip) s" + (control.canSkipDateRanges ? " with date ranges" : "")) }
                if let holdBack = control.partHoldBackSeconds { features.append("part hold back \(holdBack) s") }
                if let holdBack = control.holdBackSeconds { features.append("hold back \(holdBack) s") }
                if !features.isEmpty { line += ", server control: " + features.joined(separator: ", ") }
            }
            out.append(line)
            for hint in lowLatency.preloadHints { out.append("  preload hint \(hint.type) \(hint.uri)") }
            for report in lowLatency.renditionReports {
                out.append("  rendition report \(report.uri)" + (report.lastMediaSequence.map { " last \($0)" } ?? "")
                    + (report.lastPart.map { ".\($0)" } ?? ""))
            }
            if let skip = lowLatency.skip {
                out.append("  delta update: \(skip.skippedSegments) segments skipped"
                    + (skip.recentlyRemovedDateRanges.isEmpty ? "" : ", date ranges removed: " + skip.recentlyRemovedDateRanges.joined(separator: ", ")))
            }
        }
        if !dateRanges.isEmpty {
            out.append("date ranges (\(dateRanges.count)):")
            for range in dateRanges {
                var line = "  \(range.id)  \(range.startDate)"
                if let duration = range.durationSeconds ?? range.plannedDurationSeconds { line += "  " + Self.fixed(duration, 3) + " s" }
                if let classIdentifier = range.classIdentifier { line += "  class \(classIdentifier)" }
                if let interstitial = range.interstitial { line += "  interstitial: \(interstitial.text)" }
                out.append(line)
                // Each of the range's SCTE-35 attributes, named when it has more than one.
                let messages = [("SCTE35-OUT", range.scte35Out), ("SCTE35-IN", range.scte35In),
                                ("SCTE35-CMD", range.scte35Command)].compactMap { name, report in report.map { (name, $0) } }
                for (name, report) in messages {
                    out.append("      SCTE-35\(messages.count > 1 ? " (\(name))" : ""): \(report.summary)")
                }
            }
        }
        if !interstitials.isEmpty {
            out.append("interstitials (\(interstitials.count)):")
            for interstitial in interstitials { out += interstitial.lines }
        }
        Self.list(cueMessages, title: "SCTE-35 in cue tags", into: &out) { message in
            "  segment \(message.mediaSequence) at " + Self.fixed(message.startSeconds, 3) + " s  \(message.tag): \(message.scte35.summary)"
        }
        out.append("ad breaks (\(adBreaks.count)):")
        for adBreak in adBreaks {
            var line = "  \(adBreak.id)  \(adBreak.source)"
            if let start = adBreak.startSeconds { line += "  at " + Self.fixed(start, 3) + " s" }
            if let duration = adBreak.durationSeconds { line += "  for " + Self.fixed(duration, 3) + " s" }
            if !adBreak.closed { line += (finished ?? false) ? "  (open)" : "  (in progress)" }
            out.append(line)
            if let scte35 = adBreak.scte35 { out.append("      SCTE-35: \(scte35.summary)") }
        }
    }

    /// How the playlist ends, as the header says it: never at odds with the problems listed.
    private var endState: String {
        guard finished ?? false else { return ", live" }
        return hasEndList ?? true ? ", ended" : " (no #EXT-X-ENDLIST)"
    }

    /// A number with a fixed count of decimals (`12.500`), without going through `String(format:)`, which costs
    /// microseconds a call on Linux (a report lists thousands of them).
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        precondition((0...18).contains(decimals), "at most 18 decimals")  // (19 digits, a point and a sign fit the buffer)
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        guard value.isFinite, abs(value) * Double(scale) < 1e18 else { return "\(value)" }
        var scaled = UInt64((abs(value) * Double(scale)).rounded())
        let negative = value < 0 && scaled != 0
        // The digits from the last one, into a buffer: at most 19 digits, the point and the sign.
        var buffer = [UInt8](repeating: 0, count: 24)
        var start = buffer.count
        var written = 0
        repeat {
            if written == decimals, decimals > 0 {
                start -= 1
                buffer[start] = UInt8(ascii: ".")
            }
            start -= 1
            buffer[start] = UInt8(truncatingIfNeeded: 48 + scaled % 10)
            scaled /= 10
            written += 1
        } while scaled > 0 || written <= decimals
        if negative {
            start -= 1
            buffer[start] = UInt8(ascii: "-")
        }
        return String(decoding: buffer[start...], as: UTF8.self)
    }

    /// A titled list of at most 20 lines, then how many more there are.
    private static func list<Item>(_ items: [Item], title: String, into out: inout [String], line: (Item) -> String) {
        guard !items.isEmpty else { return }
        out.append("\(title) (\(items.count)):")
        for item in items.prefix(20) { out.append(line(item)) }
        if items.count > 20 { out.append("  … \(items.count - 20) more (all of them with --json)") }
    }
}
