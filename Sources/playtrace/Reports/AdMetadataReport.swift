import Foundation
import PlaytraceAds
import PlaytraceCore

/// `inspect`'s report of Harmonic ad metadata or MediaTailor tracking JSON: the breaks, their ads, every tracking
/// event with its time and URLs, and the problems found (each with its JSON path).
struct AdMetadataReport: Encodable {
    struct Event: Encodable {
        var event: String
        /// `automatic`, `playerInitiated` or `other` (listed, never fired).
        var kind: String
        var time: String
        var offsetInAdSeconds: Double?
        var durationSeconds: Double
        var urls: [String]
    }

    struct AdEntry: Encodable {
        var id: String
        var title: String?
        var start: String
        var durationSeconds: Double
        var clickThrough: String?
        var events: [Event]
    }

    struct Break: Encodable {
        var id: String
        var start: String
        var durationSeconds: Double
        var events: [Event]
        var ads: [AdEntry]
    }

    var source: String
    var format: String
    var size: Int
    var timeline: String
    var dataRange: [String]?
    var nextToken: String?
    var nonLinearAvails: Int
    var breaks: [Break]
    var problems: [String]

    init(_ metadata: AdMetadata, format: AdMetadataFormat, source: String, size: Int) {
        self.source = source
        self.format = format == .harmonic ? "Harmonic ad metadata" : "MediaTailor tracking"
        self.size = size
        let timeline = metadata.timeline
        self.timeline = timeline == .programDateTime ? "program-date-time" : (format == .harmonic
            ? "offsets from the start of the content" : "offsets from the start of the session")
        func time(_ milliseconds: Double) -> String {
            timeline == .programDateTime
                ? StreamDate(millisecondsSince1970: milliseconds).iso8601Milliseconds
                : Self.seconds(milliseconds / 1000)
        }
        func events(_ list: [TrackingEvent], adStart: Double?) -> [Event] {
            list.map { event in
                let kind = switch event.event.kind {
                case .automatic: "automatic"
                case .playerInitiated: "playerInitiated"
                case .other: "other"
                }
                return Event(event: event.event.rawValue, kind: kind, time: time(event.startTime),
                             offsetInAdSeconds: adStart.map { (event.startTime - $0) / 1000 },
                             durationSeconds: event.duration / 1000, urls: event.signalingUrls)
            }
        }
        dataRange = metadata.dataRange.map { [time($0.start), time($0.end)] }
        nextToken = metadata.nextToken
        nonLinearAvails = metadata.nonLinearAvailCount
        breaks = metadata.pods.map { pod in
            Break(id: pod.id, start: time(pod.startTime), durationSeconds: pod.duration / 1000,
                  events: events(pod.trackingEvents, adStart: nil),
                  ads: pod.ads.map { ad in
                      AdEntry(id: ad.id, title: ad.title, start: time(ad.startTime), durationSeconds: ad.duration / 1000,
                              clickThrough: ad.clickThrough, events: events(ad.trackingEvents, adStart: ad.startTime))
                  })
        }
        problems = metadata.problems.map(\.description)
    }

    static func seconds(_ value: Double) -> String { String(format: "%.3f s", value) }

    var lines: [String] {
        var lines: [String] = []
        let adCount = breaks.reduce(0) { $0 + $1.ads.count }
        let eventCount = breaks.reduce(0) { $0 + $1.events.count + $1.ads.reduce(0) { $0 + $1.events.count } }
        lines.append("\(source): \(format), \(size) bytes, times are \(timeline)")
        if let dataRange { lines.append("data range: \(dataRange[0]) to \(dataRange[1])") }
        if let nextToken { lines.append("next token: \(nextToken)") }
        if nonLinearAvails > 0 { lines.append("non-linear avails: \(nonLinearAvails) (listed by the server, never beaconed)") }
        lines.append("\(breaks.count) break\(breaks.count == 1 ? "" : "s"), \(adCount) ad\(adCount == 1 ? "" : "s"), "
            + "\(eventCount) tracking event\(eventCount == 1 ? "" : "s"), \(problems.count) problem\(problems.count == 1 ? "" : "s")")
        for entry in breaks {
            lines.append("")
            lines.append("break \(entry.id) at \(entry.start), \(Self.seconds(entry.durationSeconds)), \(entry.ads.count) ad\(entry.ads.count == 1 ? "" : "s")")
            lines += eventLines(entry.events, indent: "  ")
            for ad in entry.ads {
                var header = "  ad \(ad.id) at \(ad.start), \(Self.seconds(ad.durationSeconds))"
                if let title = ad.title { header += " \"\(title)\"" }
                lines.append(header)
                if let clickThrough = ad.clickThrough { lines.append("    click-through (opened, never requested): \(clickThrough)") }
                lines += eventLines(ad.events, indent: "    ")
            }
        }
        if !problems.isEmpty {
            lines.append("")
            lines.append("problems (each element named was skipped or given a default; the rest is kept):")
            lines += problems.map { "  \($0)" }
        }
        return lines
    }

    private func eventLines(_ events: [Event], indent: String) -> [String] {
        var lines: [String] = []
        for event in events {
            var line = "\(indent)\(event.event.padding(toLength: max(event.event.count, 15), withPad: " ", startingAt: 0)) "
            if let offset = event.offsetInAdSeconds {
                line += "+\(Self.seconds(offset)) (\(event.time))"
            } else {
                line += event.time
            }
            if event.durationSeconds > 0 { line += ", spans \(Self.seconds(event.durationSeconds))" }
            if event.kind == "playerInitiated" { line += ", when the viewer does it" }
            if event.kind == "other" { line += ", never fired automatically" }
            lines.append(line)
            if event.urls.isEmpty { lines.append("\(indent)  (no URL)") }
            lines += event.urls.map { "\(indent)  \($0)" }
        }
        return lines
    }
}
