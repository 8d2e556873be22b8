import Foundation

/// SVTA2053 ad creative signaling as the lab writes it for one ad (a slot), in its HLS streams' ad-ID date ranges
/// (base64, `X-AD-CREATIVE-SIGNALING`) and its DASH presentation's signaling events (the JSON itself): every tracking
/// event the slot can name, each beaconing `<sink>/<event>`, and a progress event at half the ad.
enum LabSignaling {
    static func slot(ad: Int, duration: Double, sink: String) -> Data {
        var tracking: [[String: Any]] = ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete",
                                         "pause", "resume", "mute", "unmute"].map { ["type": $0, "urls": ["\(sink)/\($0)"]] }
        tracking.append(["type": "progress", "offset": duration / 2, "urls": ["\(sink)/progress"]])
        let envelope: [String: Any] = [
            "version": 2, "type": "slot",
            "payload": [["type": "linear", "start": 0, "duration": duration,
                         "identifiers": [["scheme": "urn:lab:ad-id", "value": "ad-\(ad)"]], "tracking": tracking]],
        ]
        return (try? JSONSerialization.data(withJSONObject: envelope, options: [.sortedKeys])) ?? Data()
    }
}
