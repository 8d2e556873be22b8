import PlaytraceCore

/// How far into a break a segment lies, from `EXT-X-CUE-OUT-CONT` (`ElapsedTime=…,Duration=…` or `7.96/50`) or
/// `EXT-X-CUE-SPAN:TIMEFROMSIGNAL=PT10S,…`: what places a break already in progress where a live playlist starts.
struct LegacyCueProgress {
    var elapsed: MediaTime
    var duration: MediaTime?
    var scte35: String?

    init?(_ segment: Segment) {
        if let continuation = segment.tags.cueOutContinuation {
            elapsed = continuation.elapsed ?? .zero
            duration = continuation.duration
            scte35 = continuation.scte35
            return
        }
        guard let span = segment.tags.unknownTags.first(where: { $0.name == "#EXT-X-CUE-SPAN" }) else { return nil }
        let text = span.line.dropFirst("#EXT-X-CUE-SPAN".count).drop { $0 == ":" }
        elapsed = .zero
        for (key, value) in LegacyCueAttributes.pairs(String(text)) where key == "timefromsignal" {
            elapsed = Self.isoDuration(value) ?? .zero
        }
    }

    /// An ISO 8601 duration of hours, minutes and seconds (`PT1M5.5S`); nil for anything else.
    static func isoDuration(_ text: String) -> MediaTime? {
        guard text.hasPrefix("PT") else { return nil }
        var seconds = 0.0
        var number = ""
        for character in text.dropFirst(2) {
            switch character {
            case "0"..."9", ".": number.append(character)
            case "H", "M", "S":
                guard let value = Double(number) else { return nil }
                seconds += value * (character == "H" ? 3_600 : character == "M" ? 60 : 1)
                number = ""
            default: return nil
            }
        }
        return number.isEmpty ? MediaTime(documentSeconds: seconds) : nil
    }
}
