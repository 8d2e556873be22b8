/// The playback speeds a stream allows, by Pillarbox's rules: none but 1 on live streams; at most 1 near the
/// live edge of a DVR stream (one cannot play faster than the edge); 0.1 to 2 otherwise.
public enum PlaybackSpeedRange {
    /// The allowed speeds.
    public static func allowed(for streamType: StreamType, isAtLiveEdge: Bool) -> ClosedRange<Double> {
        switch streamType {
        case .live: return 1...1
        case .dvr where isAtLiveEdge: return 0.1...1
        case .onDemand, .dvr, .unknown: return 0.1...2
        }
    }

    /// A requested speed moved into the allowed range.
    public static func clamp(_ speed: Double, for streamType: StreamType, isAtLiveEdge: Bool) -> Double {
        let range = allowed(for: streamType, isAtLiveEdge: isAtLiveEdge)
        guard speed.isFinite else { return 1 }
        return min(max(speed, range.lowerBound), range.upperBound)
    }
}

/// Pillarbox's "smart" previous-item navigation: going back while more than this far into on-demand content
/// restarts the current item instead.
public enum SmartNavigation {
    /// The threshold.
    public static let restartThreshold = 3.0

    /// Whether "previous" restarts the current item rather than returning to the previous one.
    public static func restartsCurrentItem(playhead: Double, streamType: StreamType) -> Bool {
        streamType == .onDemand && playhead > restartThreshold
    }
}
