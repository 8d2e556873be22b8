/// The playback speeds a stream allows, by Pillarbox's rules: none but 1 on live streams and streams of unknown
/// type; at most 1 near the live edge of a DVR stream (one cannot play faster than the edge); 0.1 to 2 otherwise.
public enum PlaybackSpeedRange {
    /// The allowed speeds.
    public static func allowed(for streamType: StreamType, isAtLiveEdge: Bool) -> ClosedRange<Double> {
        switch streamType {
        case .live: return 1...1
        case .dvr where isAtLiveEdge: return 0.1...1
        case .unknown: return 1...1
        case .onDemand, .dvr: return 0.1...2
        }
    }

    /// A requested speed moved into the allowed range.
    public static func clamp(_ speed: Double, for streamType: StreamType, isAtLiveEdge: Bool) -> Double {
        let range = allowed(for: streamType, isAtLiveEdge: isAtLiveEdge)
        guard speed.isFinite else { return 1 }
        return min(max(speed, range.lowerBound), range.upperBound)
    }
}
