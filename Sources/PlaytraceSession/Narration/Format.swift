import Foundation
import PlaytraceCore

/// How numbers, sizes and dates read in the terminal and in the report: the one place each form is written.
package enum Format {
    /// A stream date's time of day (UTC, milliseconds): `00:00:08.000Z`.
    package static func timeOfDay(millisecondsSince1970 milliseconds: Double) -> String {
        let text = StreamDate(millisecondsSince1970: milliseconds).iso8601Milliseconds
        return text.split(separator: "T").last.map(String.init) ?? text
    }

    package static func seconds(_ value: Double) -> String { String(format: "%.2f s", value) }

    /// A duration in milliseconds: `12.5 ms`.
    package static func milliseconds(_ value: Duration) -> String { String(format: "%.1f ms", value.seconds * 1_000) }

    /// `; influxdb asked to wait (Retry-After): due at 2026-11-27T22:59:30.000Z` for each destination whose server
    /// asked for a wait that outlasted the drain (dates in seconds since 1970); empty for none.
    package static func retryAfter(_ dueDates: [String: Double]) -> String {
        dueDates.sorted { $0.key < $1.key }.map { destination, date in
            "; \(destination) asked to wait (Retry-After): due at \(StreamDate(secondsSince1970: date).iso8601Milliseconds)"
        }.joined()
    }

    package static func seconds(_ value: Duration) -> String { seconds(Double(value.components.seconds) + Double(value.components.attoseconds) * 1e-18) }

    package static func bytes(_ count: Int) -> String {
        if count >= 1_000_000 { return String(format: "%.1f MB", Double(count) / 1_000_000) }
        if count >= 1_000 { return String(format: "%.1f kB", Double(count) / 1_000) }
        return "\(count) B"
    }

    /// A bit rate in the unit that keeps it short: `400 kbit/s`, `3.00 Mbit/s`, `5.35 Gbit/s` (a loopback's
    /// throughput).
    package static func bitrate(_ bitsPerSecond: Double) -> String {
        guard bitsPerSecond.isFinite else { return "-" }
        if bitsPerSecond >= 1_000_000_000 { return String(format: "%.2f Gbit/s", bitsPerSecond / 1_000_000_000) }
        if bitsPerSecond >= 1_000_000 { return String(format: "%.2f Mbit/s", bitsPerSecond / 1_000_000) }
        return String(format: "%.0f kbit/s", bitsPerSecond / 1_000)
    }

    /// What kind of stream an item is, in words: `on-demand video`, `live audio`, `DVR video`; `not known` when
    /// nothing loaded. Takes the summary's raw values (``StreamType`` and ``MediaType``'s).
    package static func streamKind(streamType: String, mediaType: String) -> String {
        let stream = switch streamType {
        case "onDemand": "on-demand"
        case "live": "live"
        case "dvr": "DVR"
        default: ""
        }
        let media = mediaType == "unknown" ? "" : mediaType
        let words = [stream, media].filter { !$0.isEmpty }.joined(separator: " ")
        return words.isEmpty ? "not known" : (media.isEmpty ? words + " stream" : words)
    }

    /// A beacon as a reader names it, `break-1/ad-1/midpoint`: its key without the outbox's session prefix
    /// (`beacon:<session>:`) and without the event's time (`@…`).
    package static func beaconName(_ key: String) -> String {
        var name = Substring(key)
        if name.hasPrefix("beacon:"), let colon = name.dropFirst(7).firstIndex(of: ":") { name = name[name.index(after: colon)...] }
        if let at = name.lastIndex(of: "@") { name = name[..<at] }
        return name.isEmpty ? key : String(name)
    }
}
