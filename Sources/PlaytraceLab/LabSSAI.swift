import Foundation
import PlaytraceCore

/// The lab's SSAI ad metadata: what the breaks of its streams hold, in the formats client-side ad trackers poll.
///
/// `GET /ssai/harmonic/vod/metadata` gives Harmonic's JSON for the on-demand stream's break: one ad per segment of
/// the break, each with impression, start, the quartiles, complete and the player-initiated events, on the
/// stream's program-date-time (milliseconds). Every beacon URL points at the lab's beacon sink
/// (`/beacons/harmonic/<break>/<ad>/<event>`), with a `[CACHEBUSTING]` macro.
struct LabSSAI {
    let configuration: LabConfiguration

    private struct Metadata: Encodable {
        struct Range: Encodable { var start: Double; var end: Double }
        struct Event: Encodable { var event: String; var startTime: Double; var duration: Double; var signalingUrls: [String] }
        struct Ad: Encodable { var id: String; var startTime: Double; var duration: Double; var trackingEvents: [Event] }
        struct Break: Encodable { var id: String; var startTime: Double; var duration: Double; var ads: [Ad] }
        var adBreaks: [Break]
        var dataRange: Range
    }

    /// The on-demand stream's break in Harmonic's format, its beacons sent to `base` (the lab's own address).
    func harmonicVOD(base: String) -> String {
        let segment = Double(configuration.segmentDuration) * 1000
        let origin = configuration.startDate.secondsSince1970 * 1000
        let breakStart = origin + Double(configuration.vodBreakStartSegment) * segment
        let podID = "break-1"
        let ads = (0..<configuration.vodBreakLengthSegments).map { index -> Metadata.Ad in
            let adID = "ad-\(index + 1)"
            let start = breakStart + Double(index) * segment
            func event(_ name: String, _ fraction: Double, spans: Bool = false) -> Metadata.Event {
                Metadata.Event(event: name, startTime: start + fraction * segment, duration: spans ? segment : 0,
                               signalingUrls: ["\(base)/beacons/harmonic/\(podID)/\(adID)/\(name)?cb=[CACHEBUSTING]"])
            }
            var events = [event("impression", 0, spans: true), event("start", 0), event("firstQuartile", 0.25),
                          event("midpoint", 0.5), event("thirdQuartile", 0.75), event("complete", 1)]
            events += ["pause", "resume", "mute", "unmute", "rewind"].map { event($0, 0, spans: true) }
            return Metadata.Ad(id: adID, startTime: start, duration: segment, trackingEvents: events)
        }
        let metadata = Metadata(
            adBreaks: [Metadata.Break(id: podID, startTime: breakStart,
                                      duration: segment * Double(configuration.vodBreakLengthSegments), ads: ads)],
            dataRange: Metadata.Range(start: origin, end: origin + segment * Double(configuration.vodSegmentCount)))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(metadata)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
