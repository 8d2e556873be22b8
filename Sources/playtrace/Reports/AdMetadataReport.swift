import Foundation
import PlaytraceAds
import PlaytraceCore

/// `inspect`'s report of Harmonic ad metadata or MediaTailor tracking JSON: the breaks, their ads, every tracking
/// event with its time and URLs, and the problems found (each with its JSON path).
struct AdMetadataReport: Encodable {
    /// A moment of the metadata: seconds on an offset timeline, or a stream date on a program-date-time timeline
    /// (exactly one of them).
    struct Moment {
        var seconds: Double?
        var date: String?

        /// The moment as the text report prints it.
        var text: String { date ?? seconds.map(AdMetadataReport.seconds) ?? "" }
    }

    struct Event: Encodable {
        var event: String
        /// `automatic`, `playerInitiated` or `other` (listed, never fired).
        var trigger: String
        /// When it fires, on the metadata's timeline: exactly one of `timeSeconds` and `date`.
        var timeSeconds: Double?
        var date: String?
        var offsetInAdSeconds: Double?
        var durationSeconds: Double
        var urls: [String]

        var moment: Moment { Moment(seconds: timeSeconds, date: date) }
    }

    struct AdEntry: Encodable {
        var id: String
        var title: String?
        var startSeconds: Double?
        var startDate: String?
        var durationSeconds: Double
        var clickThrough: String?
        var events: [Event]

        var start: Moment { Moment(seconds: startSeconds, date: startDate) }
    }

    struct Break: Encodable {
        var id: String
        var startSeconds: Double?
        var startDate: String?
        var durationSeconds: Double
        var events: [Event]
        var ads: [AdEntry]

        var start: Moment { Moment(seconds: startSeconds, date: startDate) }
    }

    /// The span of the stream the metadata covers (Harmonic's `dataRange`).
    struct DataRange: Encodable {
        var startSeconds: Double?
        var startDate: String?
        var endSeconds: Double?
        var endDate: String?
    }

    var schemaVersion = InspectJSON.schemaVersion
    var source: String
    /// `harmonic-ad-metadata` or `mediatailor-tracking`.
    var kind: String
    var bytes: Int
    /// `program-date-time` (times are stream dates), `content-offset` (seconds from the start of the content) or
    /// `session-offset` (seconds from the start of the session).
    var timeline: String
    var dataRange: DataRange?
    var nextToken: String?
    var nonLinearAvails: Int
    var breaks: [Break]
    var problems: [String]

    init(_ metadata: AdMetadata, format: AdMetadataFormat, source: String, size: Int) {
        self.source = source
        kind = format == .harmonic ? "harmonic-ad-metadata" : "mediatailor-tracking"
        bytes = size
        let onDates = metadata.timeline == .programDateTime
        timeline = onDates ? "program-date-time" : (format == .harmonic ? "content-offset" : "session-offset")
        func moment(_ time: AdTime) -> Moment {
            onDates ? Moment(date: time.streamDate.iso8601Milliseconds) : Moment(seconds: time.seconds)
        }
        func events(_ list: [TrackingEvent], adStart: AdTime?) -> [Event] {
            list.map { event in
                let time = moment(event.startTime)
                return Event(event: event.event.rawValue, trigger: event.event.kind.rawValue, timeSeconds: time.seconds, date: time.date,
                             offsetInAdSeconds: adStart.map { (event.startTime - $0).seconds },
                             durationSeconds: event.duration.seconds, urls: event.signalingUrls)
            }
        }
        dataRange = metadata.dataRange.map { range in
            let start = moment(range.start), end = moment(range.end)
            return DataRange(startSeconds: start.seconds, startDate: start.date, endSeconds: end.seconds, endDate: end.date)
        }
        nextToken = metadata.nextToken
        nonLinearAvails = metadata.nonLinearAvailCount
        breaks = metadata.pods.map { pod in
            let start = moment(pod.startTime)
            return Break(id: pod.id, startSeconds: start.seconds, startDate: start.date, durationSeconds: pod.duration.seconds,
                         events: events(pod.trackingEvents, adStart: nil),
                         ads: pod.ads.map { ad in
                             let start = moment(ad.startTime)
                             return AdEntry(id: ad.id, title: ad.title, startSeconds: start.seconds, startDate: start.date,
                                            durationSeconds: ad.duration.seconds, clickThrough: ad.clickThrough,
                                            events: events(ad.trackingEvents, adStart: ad.startTime))
                         })
        }
        problems = metadata.problems.map(\.description)
    }

    static func seconds(_ value: Double) -> String { String(format: "%.3f s", value) }

    /// The document's kind and timeline as the text report's first line says them.
    private var description: String {
        let format = kind == "harmonic-ad-metadata" ? "Harmonic ad metadata" : "MediaTailor tracking"
        let times = switch timeline {
        case "program-date-time": "program-date-time"
        case "content-offset": "offsets from the start of the content"
        default: "offsets from the start of the session"
        }
        return "\(format), \(bytes) bytes, times are \(times)"
    }

    var lines: [String] {
        var lines: [String] = []
        let adCount = breaks.reduce(0) { $0 + $1.ads.count }
        let eventCount = breaks.reduce(0) { $0 + $1.events.count + $1.ads.reduce(0) { $0 + $1.events.count } }
        lines.append("\(source): \(description)")
        if let dataRange {
            let start = Moment(seconds: dataRange.startSeconds, date: dataRange.startDate)
            let end = Moment(seconds: dataRange.endSeconds, date: dataRange.endDate)
            lines.append("data range: \(start.text) to \(end.text)")
        }
        if let nextToken { lines.append("next token: \(nextToken)") }
        if nonLinearAvails > 0 { lines.append("non-linear avails: \(nonLinearAvails) (listed by the server, never beaconed)") }
        lines.append("\(breaks.count) break\(breaks.count == 1 ? "" : "s"), \(adCount) ad\(adCount == 1 ? "" : "s"), "
            + "\(eventCount) tracking event\(eventCount == 1 ? "" : "s"), \(problems.count) problem\(problems.count == 1 ? "" : "s")")
        for entry in breaks {
            lines.append("")
            lines.append("break \(entry.id) at \(entry.start.text), \(Self.seconds(entry.durationSeconds)), \(entry.ads.count) ad\(entry.ads.count == 1 ? "" : "s")")
            lines += eventLines(entry.events, indent: "  ")
            for ad in entry.ads {
                var header = "  ad \(ad.id) at \(ad.start.text), \(Self.seconds(ad.durationSeconds))"
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
                line += "+\(Self.seconds(offset)) (\(event.moment.text))"
            } else {
                line += event.moment.text
            }
            if event.durationSeconds > 0 { line += ", spans \(Self.seconds(event.durationSeconds))" }
            if event.trigger == "playerInitiated" { line += ", when the viewer does it" }
            if event.trigger == "other" { line += ", never fired automatically" }
            lines.append(line)
            if event.urls.isEmpty { lines.append("\(indent)  (no URL)") }
            lines += event.urls.map { "\(indent)  \($0)" }
        }
        return lines
    }
}
