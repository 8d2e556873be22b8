import PlaytraceCore

extension MPDReport {
    /// The report for people: the presentation, each period with its sets, representations and events, then the
    /// problems. Outside text is escaped by the caller's one path (`PlainText.safe`).
    var lines: [String] {
        var out: [String] = []
        out.append("MPD, \(type == "dynamic" ? "live (dynamic)" : "on demand (static)"), \(bytes) bytes — \(source)")
        if !profiles.isEmpty { out.append("  profiles: " + profiles.joined(separator: ", ")) }
        var timing: [String] = []
        if let availabilityStartTime { timing.append("available from \(availabilityStartTime)") }
        if let mediaPresentationDurationSeconds { timing.append("lasts \(Self.text(mediaPresentationDurationSeconds))") }
        if let publishTime { timing.append("published \(publishTime)") }
        if !timing.isEmpty { out.append("  " + timing.joined(separator: ", ")) }
        if type == "dynamic" {
            out.append("  updated " + (minimumUpdatePeriodSeconds.map { "at most every \(Self.text($0)) (minimumUpdatePeriod)" }
                                        ?? "never (no minimumUpdatePeriod)")
                       + ", DVR window " + (timeShiftBufferDepthSeconds.map(Self.text) ?? "from the availability start")
                       + ", presentation delay " + (suggestedPresentationDelaySeconds.map { Self.text($0) + " (suggested)" } ?? "not suggested"))
            if utcTimings.isEmpty {
                out.append("  no UTCTiming: a player must trust its own clock")
            }
        }
        for location in locations { out.append("  Location: \(location)") }
        for timing in utcTimings {
            out.append("  UTCTiming \(timing.scheme): \(timing.value)" + (timing.usable ? "" : " (not used)"))
        }
        if let inspectedAt {
            let source = clock.map { clock in
                clock.offsetSeconds == 0 ? clock.source
                    : "\(clock.source), \(Self.text(abs(clock.offsetSeconds))) \(clock.offsetSeconds > 0 ? "ahead of" : "behind") this machine"
            } ?? "this machine's clock"
            out.append("  availability below as of \(inspectedAt) (\(source))")
        }
        for period in periods { out += period.lines(live: type == "dynamic") }
        if !problems.isEmpty {
            out.append("problems (\(problems.count); each was passed over, the rest is kept):")
            out += problems.map { "  " + $0 }
        }
        if let unusable { out.append("unusable: \(unusable)") }
        return out
    }

    static func text(_ seconds: Double) -> String { InspectionReport.fixed(seconds, 3) + " s" }
}

extension MPDReport.PeriodEntry {
    func lines(live: Bool) -> [String] {
        var out = ["period \(id): from \(MPDReport.text(startSeconds))"
                   + (endSeconds.map { " to \(MPDReport.text($0))" } ?? (live ? ", open (live)" : ", end not written"))
                   + (assetIdentifier.map { ", asset \($0)" } ?? "")
                   + (continues.map { ", continues period \($0)" } ?? "")
                   + (connects.map { ", connects to period \($0)" } ?? "")]
        for set in adaptationSets {
            var header = "  \(set.kind)" + (set.id.map { " (set \($0))" } ?? "")
            if let lang = set.lang { header += " lang \(lang)" }
            if !set.roles.isEmpty { header += " role " + set.roles.joined(separator: ",") }
            if !set.labels.isEmpty { header += " \"" + set.labels.joined(separator: "\", \"") + "\"" }
            header += ": \(set.representations.count) representation(s)"
            out.append(header)
            if !set.contentProtection.isEmpty { out.append("    protected: " + set.contentProtection.joined(separator: "; ")) }
            if !set.inbandEventStreams.isEmpty { out.append("    in-band events: " + set.inbandEventStreams.joined(separator: "; ")) }
            for representation in set.representations { out += representation.lines }
        }
        for stream in eventStreams {
            out.append("  events \(stream.schemeIdUri)" + (stream.value.map { " (\($0))" } ?? "") + ": \(stream.events.count)")
            for event in stream.events.prefix(50) {
                var line = "    at \(MPDReport.text(event.startSeconds))"
                if let duration = event.durationSeconds { line += " for \(MPDReport.text(duration))" }
                if let id = event.id { line += " id \(id)" }
                if let scte35 = event.scte35 {
                    line += ": " + scte35.summary
                } else if let text = event.text {
                    line += ": " + (text.count > 120 ? text.prefix(120) + "…" : text)
                }
                out.append(line)
            }
            if stream.events.count > 50 { out.append("    … and \(stream.events.count - 50) more (all in --json)") }
        }
        return out
    }
}

extension MPDReport.RepresentationEntry {
    var lines: [String] {
        var header = "    \(id)"
        if let bandwidth = bandwidthBitsPerSecond { header += " \(bandwidth / 1_000) kb/s" }
        if let codecs { header += " \(codecs)" }
        if let width, let height { header += " \(width)x\(height)" }
        if let frameRate { header += " \(frameRate) fps" }
        if let audioSamplingRate { header += " \(audioSamplingRate) Hz" }
        var out = [header]
        var addressingLine = "      \(addressing), timescale \(timescale)"
        if presentationTimeOffsetTicks != 0 { addressingLine += ", offset \(presentationTimeOffsetTicks) ticks" }
        addressingLine += ", " + (segmentCount.map { "\($0) segment(s)" } ?? "segments without end (live)")
        out.append(addressingLine)
        if let initialization { out.append("      init  \(initialization)") }
        if let available {
            let drift = available.liveEdgeSeconds - available.newestEndSeconds
            out.append("      now   \(available.count) available; the newest ends \(MPDReport.text(drift)) before the clock's live edge")
        }
        let live = available != nil
        if let firstSegment { out.append((live ? "      oldest " : "      first ") + firstSegment.text) }
        if let lastSegment { out.append((live ? "      newest " : "      last  ") + lastSegment.text) }
        if baseURLs.count > 1 { out.append("      \(baseURLs.count) locations: " + baseURLs.joined(separator: ", ")) }
        for reference in producerReferenceTimes {
            var line = "      producer time \(reference.id) (\(reference.type)\(reference.inband ? ", also in segments" : "")): "
                + "\(MPDReport.text(reference.presentationSeconds)) made at \(reference.wallClock ?? reference.wallClockTime)"
            if let offset = reference.timelineOffsetSeconds {
                line += ", \(MPDReport.text(abs(offset))) \(offset < 0 ? "before" : "after") its place on the live timeline"
            }
            out.append(line)
        }
        return out
    }
}

extension MPDReport.SegmentEntry {
    var text: String {
        "#\(number) at \(MPDReport.text(startSeconds)) for \(MPDReport.text(durationSeconds)): \(url)"
            + (byteRange.map { " bytes \($0)" } ?? "")
    }
}
