import PlaytraceCore

/// The report's timeline: one SVG with the session's time across. On top, the playhead against the session's
/// time, with the ad breaks and interstitials as bands at their place on the content's timeline and each beacon a
/// mark where the playhead crossed it (coloured by its state, its lateness in its tooltip); below, the buffer ahead
/// and the variant's bit rate. Stalls and pauses are bands across all three; seeks and rate changes are marks.
struct TimelineChart {
    private let summary: SessionSummary
    private let width = 1000.0
    private let left = 64.0
    private let right = 12.0
    /// The panels' tops and heights.
    private let playhead = (top: 10.0, height: 240.0)
    private let buffer = (top: 280.0, height: 70.0)
    private let bitrate = (top: 380.0, height: 60.0)
    private let height = 470.0
    /// The session's span, seconds.
    private let span: Double
    /// The highest media time shown.
    private let mediaTop: Double

    init(_ summary: SessionSummary) {
        self.summary = summary
        let timeline = summary.timeline
        let ends: [Double] = [timeline.samples.last?.atSeconds ?? 0, timeline.events.last?.atSeconds ?? 0,
                    summary.ads?.beacons.map(\.crossingSeconds).max() ?? 0]
        span = max(ends.max() ?? 0, 1)
        let media = timeline.samples.map(\.playheadSeconds) + timeline.breaks.compactMap { adBreak in
            adBreak.startSeconds.map { $0 + (adBreak.durationSeconds ?? 0) }
        }
        mediaTop = max(media.max() ?? 0, 1) * 1.05
    }

    func svg() -> String {
        let samples = summary.timeline.samples
        guard !samples.isEmpty else { return "<p>No sample of the player was taken (the session ended at once).</p>" }
        var parts: [String] = []
        parts.append(axes())
        parts += bands()
        parts += breakBands()
        parts.append(playheadLines())
        parts.append(bufferArea())
        parts.append(bitrateSteps())
        parts += marks()
        parts += beaconMarks()
        // Scrolled sideways on a phone rather than shrunk past reading.
        return "<div class=\"scroll\"><svg viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"session timeline\" "
            + "xmlns=\"http://www.w3.org/2000/svg\">\n" + parts.joined(separator: "\n") + "\n</svg></div>\n" + legend()
    }

    // MARK: Scales

    private func x(_ seconds: Double) -> Double { left + min(max(seconds / span, 0), 1) * (width - left - right) }

    private func yMedia(_ seconds: Double) -> Double {
        playhead.top + playhead.height - min(max(seconds / mediaTop, 0), 1) * playhead.height
    }

    private var plotRight: Double { width - right }

    // MARK: Layers

    private func axes() -> String {
        var out = ""
        for (top, panelHeight, label) in [(playhead.top, playhead.height, "playhead"), (buffer.top, buffer.height, "buffer"),
                                           (bitrate.top, bitrate.height, "bit rate")] {
            out += "<rect x=\"\(HTMLText.number(left))\" y=\"\(HTMLText.number(top))\" width=\"\(HTMLText.number(plotRight - left))\" "
                + "height=\"\(HTMLText.number(panelHeight))\" fill=\"none\" stroke=\"var(--line)\"/>"
            out += "<text x=\"4\" y=\"\(HTMLText.number(top + 12))\">\(label)</text>"
        }
        // Media-time ticks on the playhead panel.
        let mediaStep = Self.step(for: mediaTop)
        var tick = mediaStep
        while tick < mediaTop {
            // No tick label under the panel's own label at its top.
            if yMedia(tick) >= playhead.top + 22 {
                out += "<text x=\"4\" y=\"\(HTMLText.number(yMedia(tick) + 4))\">\(MediaTime(seconds: tick).timecode.prefix(8))</text>"
            }
            out += "<line x1=\"\(HTMLText.number(left))\" x2=\"\(HTMLText.number(plotRight))\" y1=\"\(HTMLText.number(yMedia(tick)))\" "
                + "y2=\"\(HTMLText.number(yMedia(tick)))\" stroke=\"var(--line)\" stroke-dasharray=\"2 4\"/>"
            tick += mediaStep
        }
        // Session-time ticks along the bottom.
        let timeStep = Self.step(for: span)
        var at = 0.0
        while at <= span {
            out += "<text x=\"\(HTMLText.number(x(at) - 10))\" y=\"\(HTMLText.number(height - 6))\">"
                + Self.clock(at) + "</text>"
            at += timeStep
        }
        let maxBuffer = max(summary.timeline.samples.map(\.bufferAheadSeconds).max() ?? 0, 1)
        out += "<text x=\"4\" y=\"\(HTMLText.number(buffer.top + buffer.height))\">\(Int(saturating: maxBuffer)) s max</text>"
        return out
    }

    /// Stalls (red) and pauses (grey) across the three panels.
    private func bands() -> [String] {
        var out: [String] = []
        // When the stall or pause under way began.
        var open: [PlaybackEventPair: Double] = [:]
        for event in summary.timeline.events {
            switch event.kind {
            case "stall": open[.stall] = event.atSeconds
            case "pause": open[.pause] = event.atSeconds
            case "stallEnded", "play":
                let kind: PlaybackEventPair = event.kind == "stallEnded" ? .stall : .pause
                guard let start = open.removeValue(forKey: kind) else { continue }
                out.append(band(from: start, to: event.atSeconds, kind: kind))
            default: break
            }
        }
        let end = summary.timeline.samples.last?.atSeconds ?? span
        for (kind, start) in open { out.append(band(from: start, to: end, kind: kind)) }
        return out
    }

    private enum PlaybackEventPair: Hashable { case stall, pause }

    private func band(from start: Double, to end: Double, kind: PlaybackEventPair) -> String {
        let colour = kind == .stall ? "var(--bad)" : "var(--wait)"
        let what = kind == .stall ? "stall" : "pause"
        return "<rect class=\"\(what)\" x=\"\(HTMLText.number(x(start)))\" y=\"\(HTMLText.number(playhead.top))\" "
            + "width=\"\(HTMLText.number(max(x(end) - x(start), 1.5)))\" height=\"\(HTMLText.number(bitrate.top + bitrate.height - playhead.top))\" "
            + "fill=\"\(colour)\" opacity=\"0.16\"><title>\(what) \(Self.clock(start))–\(Self.clock(end)) "
            + "(\(Format.seconds(end - start)))</title></rect>"
    }

    /// Each stitched break as a band at its place on the item's media timeline, over the session time its item was
    /// current; each interstitial (which plays apart from the item's timeline) as a band over the session time it
    /// played, and a line at its place.
    private func breakBands() -> [String] {
        let runs = itemRuns()
        var out: [String] = []
        for adBreak in summary.timeline.breaks {
            guard let start = adBreak.startSeconds else { continue }
            let tip = HTMLText.escape("\(adBreak.interstitial ? "interstitial" : "ad break") \(adBreak.id) "
                + "(\(adBreak.sources.joined(separator: " + "))) at \(MediaTime(seconds: start).timecode)"
                + (adBreak.durationSeconds.map { " for " + Format.seconds($0) } ?? ", open"))
            if adBreak.interstitial {
                for run in interstitialRuns(adBreak.id, item: adBreak.item) {
                    out.append(rect(class: "interstitial", x: x(run.from), y: playhead.top, width: max(x(run.to) - x(run.from), 1.5),
                                    height: playhead.height, fill: "var(--inter)", tip: tip))
                }
                for run in runs where run.item == adBreak.item {
                    out.append(rect(class: "interstitial-place", x: x(run.from), y: yMedia(start) - 1,
                                    width: max(x(run.to) - x(run.from), 1), height: 2, fill: "var(--inter)", tip: tip))
                }
                continue
            }
            let top = yMedia(start + max(adBreak.durationSeconds ?? 0, mediaTop / 200))
            for run in runs where run.item == adBreak.item {
                out.append(rect(class: "break", x: x(run.from), y: top, width: max(x(run.to) - x(run.from), 1),
                                height: max(yMedia(start) - top, 1.5), fill: "var(--band)", tip: tip))
            }
        }
        return out
    }

    private func rect(class name: String, x: Double, y: Double, width: Double, height: Double, fill: String,
                      tip: String) -> String {
        "<rect class=\"\(name)\" x=\"\(HTMLText.number(x))\" y=\"\(HTMLText.number(y))\" width=\"\(HTMLText.number(width))\" "
            + "height=\"\(HTMLText.number(height))\" fill=\"\(fill)\" opacity=\"0.22\"><title>\(tip)</title></rect>"
    }

    /// The session time an interstitial played, from the samples.
    private func interstitialRuns(_ id: String, item: Int) -> [(from: Double, to: Double)] {
        var runs: [(from: Double, to: Double)] = []
        var previous: SessionSummary.Sample?
        for sample in summary.timeline.samples {
            defer { previous = sample }
            guard sample.item == item, sample.interstitial == id else { continue }
            if let previous, previous.item == item, previous.interstitial == id, !runs.isEmpty {
                runs[runs.count - 1].to = sample.atSeconds
            } else {
                runs.append((previous?.atSeconds ?? sample.atSeconds, sample.atSeconds))
            }
        }
        return runs
    }

    /// The session time each item was current, from the samples.
    private func itemRuns() -> [(item: Int, from: Double, to: Double)] {
        var runs: [(item: Int, from: Double, to: Double)] = []
        for sample in summary.timeline.samples {
            if let last = runs.last, last.item == sample.item {
                runs[runs.count - 1].to = sample.atSeconds
            } else {
                runs.append((sample.item, sample.atSeconds, sample.atSeconds))
            }
        }
        return runs
    }

    private func playheadLines() -> String {
        var paths: [String] = []
        var current = ""
        var item: Int?
        for sample in summary.timeline.samples {
            let point = HTMLText.number(x(sample.atSeconds)) + "," + HTMLText.number(yMedia(sample.playheadSeconds))
            if sample.item != item {
                if !current.isEmpty { paths.append(current) }
                current = point
                item = sample.item
            } else {
                current += " " + point
            }
        }
        if !current.isEmpty { paths.append(current) }
        return paths.map {
            "<polyline class=\"playhead\" points=\"\($0)\" fill=\"none\" stroke=\"var(--play)\" stroke-width=\"1.8\"/>"
        }.joined(separator: "\n")
    }

    private func bufferArea() -> String {
        let samples = summary.timeline.samples
        let maxBuffer = max(samples.map(\.bufferAheadSeconds).max() ?? 0, 1)
        let base = buffer.top + buffer.height
        var points = HTMLText.number(x(samples[0].atSeconds)) + "," + HTMLText.number(base)
        for sample in samples {
            let y = base - min(sample.bufferAheadSeconds / maxBuffer, 1) * buffer.height
            points += " " + HTMLText.number(x(sample.atSeconds)) + "," + HTMLText.number(y)
        }
        points += " " + HTMLText.number(x(samples[samples.count - 1].atSeconds)) + "," + HTMLText.number(base)
        return "<polygon class=\"buffer\" points=\"\(points)\" fill=\"var(--play)\" opacity=\"0.35\"/>"
    }

    private func bitrateSteps() -> String {
        let samples = summary.timeline.samples
        let top = Double(max(samples.compactMap(\.bitrateBitsPerSecond).max() ?? 0, 1))
        let base = bitrate.top + bitrate.height
        var points = ""
        var last: Double?
        for sample in samples {
            guard let value = sample.bitrateBitsPerSecond else { continue }
            let y = base - Double(value) / top * bitrate.height
            if let last, last != y { points += " " + HTMLText.number(x(sample.atSeconds)) + "," + HTMLText.number(last) }
            points += " " + HTMLText.number(x(sample.atSeconds)) + "," + HTMLText.number(y)
            last = y
        }
        guard !points.isEmpty else { return "" }
        return "<polyline class=\"bitrate\" points=\"\(points)\" fill=\"none\" stroke=\"var(--ok)\" stroke-width=\"1.5\"/>"
            + "<text x=\"4\" y=\"\(HTMLText.number(bitrate.top + 26))\">\(Format.bitrate(top))</text>"
    }

    /// Seeks, rate changes, variant switches, failures and warnings.
    private func marks() -> [String] {
        summary.timeline.events.compactMap { event in
            let (colour, y1, y2): (String, Double, Double)
            switch event.kind {
            case "seek", "seekEnded": (colour, y1, y2) = ("var(--play)", playhead.top, playhead.top + playhead.height)
            case "rate": (colour, y1, y2) = ("var(--late)", playhead.top, playhead.top + 14)
            case "variantSwitch": (colour, y1, y2) = ("var(--ok)", bitrate.top, bitrate.top + bitrate.height)
            case "failure", "warning": (colour, y1, y2) = ("var(--bad)", playhead.top, bitrate.top + bitrate.height)
            case "firstFrame", "interstitialBegan", "interstitialEnded", "itemStarted":
                (colour, y1, y2) = ("var(--muted)", playhead.top + playhead.height - 14, playhead.top + playhead.height)
            default: return nil
            }
            let at = HTMLText.number(x(event.atSeconds))
            // Each item after the first is named where it starts.
            let label = event.kind == "itemStarted" && event.item > 0
                ? "<text x=\"\(HTMLText.number(x(event.atSeconds) + 3))\" y=\"\(HTMLText.number(playhead.top + playhead.height - 4))\">"
                    + HTMLText.escape("▶ " + event.text) + "</text>" : ""
            return "<line class=\"event event-\(event.kind)\" x1=\"\(at)\" x2=\"\(at)\" y1=\"\(HTMLText.number(y1))\" "
                + "y2=\"\(HTMLText.number(y2))\" stroke=\"\(colour)\" stroke-width=\"1.5\" stroke-dasharray=\"3 2\"><title>"
                + HTMLText.escape("\(Self.clock(event.atSeconds)) at \(MediaTime(seconds: event.playheadSeconds).timecode): \(event.text)")
                + "</title></line>" + label
        }
    }

    /// One mark per beacon URL, where the playhead crossed its event.
    private func beaconMarks() -> [String] {
        guard let ads = summary.ads else { return [] }
        return ads.beacons.map { beacon in
            let state = Self.markState(beacon)
            // On the playhead's line where it crossed the event (an interstitial's events are crossed while the
            // item's playhead waits at the interstitial's place).
            let y = yMedia(playheadAt(beacon.crossingSeconds))
            var tip = "\(Format.beaconName(beacon.key)) — \(state)"
            if let lateness = beacon.deliveryLatenessMilliseconds {
                tip += String(format: ", delivered %.1f ms after its crossing", lateness)
            }
            tip += String(format: "; handed over %.1f ms after it; %d attempt(s)", beacon.firingLatenessMilliseconds, beacon.attempts)
            if let reason = beacon.reason { tip += "; " + reason }
            tip += "\n" + beacon.url
            return "<circle class=\"beacon beacon-\(state)\" cx=\"\(HTMLText.number(x(beacon.crossingSeconds)))\" "
                + "cy=\"\(HTMLText.number(y))\" r=\"4\" fill=\"\(Self.colour(state))\" stroke=\"var(--bg)\"><title>"
                + HTMLText.escape(tip) + "</title></circle>"
        }
    }

    /// The playhead at a session time, between the samples around it.
    private func playheadAt(_ seconds: Double) -> Double {
        let samples = summary.timeline.samples
        var low = 0, high = samples.count
        while low < high {
            let middle = (low + high) / 2
            if samples[middle].atSeconds <= seconds { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return samples.first?.playheadSeconds ?? 0 }
        let before = samples[low - 1]
        guard low < samples.count, samples[low].item == before.item, samples[low].atSeconds > before.atSeconds else {
            return before.playheadSeconds
        }
        let after = samples[low]
        let fraction = (seconds - before.atSeconds) / (after.atSeconds - before.atSeconds)
        return before.playheadSeconds + (after.playheadSeconds - before.playheadSeconds) * fraction
    }

    /// `fired` (handed over, waiting), `delivered`, `late`, `failed`, or `skipped` (refused and skipped URLs).
    static func markState(_ beacon: SessionSummary.Beacon) -> String {
        switch beacon.state {
        case "delivered": beacon.late ? "late" : "delivered"
        case "waiting": "fired"
        case "failed": "failed"
        default: "skipped"
        }
    }

    static func colour(_ state: String) -> String {
        switch state {
        case "delivered": "var(--ok)"
        case "late": "var(--late)"
        case "failed": "var(--bad)"
        default: "var(--wait)"
        }
    }

    private func legend() -> String {
        let entries = [("var(--play)", "playhead, buffer"), ("var(--ok)", "bit rate; beacon delivered"),
                       ("var(--late)", "beacon late (> 1 s)"), ("var(--bad)", "beacon failed; stall"),
                       ("var(--wait)", "beacon fired, waiting or skipped; pause"), ("var(--band)", "stitched ad break"),
                       ("var(--inter)", "interstitial")]
        return "<p class=\"legend\">" + entries.map {
            "<span><i class=\"swatch\" style=\"background:\($0.0)\"></i>\($0.1)</span>"
        }.joined() + "</p><p class=\"note\">Hover a mark for its details. Times across are the session's "
            + "(m:ss from its start); the playhead is on each item's media timeline.</p>"
    }

    /// A round step giving 4 to 10 ticks over `range`.
    static func step(for range: Double) -> Double {
        let candidates: [Double] = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1_800, 3_600, 7_200, 14_400, 28_800, 86_400]
        return candidates.first { range / $0 <= 10 } ?? (range / 10).rounded(.up)
    }

    /// `m:ss`, or `h:mm:ss`.
    static func clock(_ seconds: Double) -> String {
        let total = Int(saturating: max(seconds, 0))
        let (hours, minutes, secs) = (total / 3_600, total / 60 % 60, total % 60)
        return hours > 0 ? String(format: "%d:%02d:%02d", hours, minutes, secs) : String(format: "%d:%02d", minutes, secs)
    }
}
