import PlaytraceCore

/// A time in a VAST ad: `HH:MM:SS`, `HH:MM:SS.mmm`, or a percentage of the ad's duration (`n%`), as `offset` and
/// `skipoffset` attributes write it.
public enum VASTOffset: Sendable, Hashable, CustomStringConvertible {
    case seconds(Double)
    case percent(Double)

    /// Reads an offset; `nil` when the text is neither form (or a value is out of range).
    public init?(_ text: String) {
        let trimmed = text.trimmingWhitespace()
        if trimmed.hasSuffix("%") {
            guard let value = Double(trimmed.dropLast()), value.isFinite, value >= 0, value <= 100 else { return nil }
            self = .percent(value)
        } else if let seconds = Self.clockSeconds(trimmed) {
            self = .seconds(seconds)
        } else {
            return nil
        }
    }

    /// Seconds from `HH:MM:SS` or `HH:MM:SS.mmm` (minutes and seconds below 60); `nil` otherwise.
    public static func clockSeconds(_ text: String) -> Double? {
        let parts = text.trimmingWhitespace().split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let hours = Int(parts[0]), let minutes = Int(parts[1]), hours >= 0,
              (0..<60).contains(minutes), !parts[2].isEmpty, parts[2].utf8.count <= 12,
              parts[2].allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              let seconds = Double(parts[2]), seconds >= 0, seconds < 60 else { return nil }
        // A time past the documents' range (10¹³ hours) is out of range too: no ad is that long.
        let total = Double(hours) * 3600 + Double(minutes) * 60 + seconds
        return MediaTime(documentSeconds: total)?.seconds
    }

    /// The offset in seconds into an ad of `duration` seconds; `nil` for a percentage when the duration is unknown
    /// (the specification lets such a `progress` be ignored).
    public func seconds(in duration: Double?) -> Double? {
        switch self {
        case .seconds(let seconds): return seconds
        case .percent(let percent):
            guard let duration, duration.isFinite, duration > 0 else { return nil }
            return duration * percent / 100
        }
    }

    public var description: String {
        switch self {
        case .seconds(let seconds): BeaconMacros.clockTime(seconds)
        case .percent(let percent): "\(percent.rounded() == percent ? String(Int(percent)) : String(percent))%"
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and line breaks.
    func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
