#if MPV
import PlaytraceCore

/// Where libmpv's time 0 lies on the engine's timeline, for the primary's current load: 0 on demand; on a live
/// stream, the start of the segment FFmpeg began the load with (libmpv's time starts at each load's first frame).
/// FFmpeg names the segments it opens in its verbose log; the engine places the first one it knows.
struct LiveOrigin: Sendable {
    /// libmpv's time 0 on the engine's timeline.
    private(set) var time = MediaTime.zero
    /// Whether the current load's origin is known (until it is, libmpv's time means nothing).
    private(set) var isPlaced = true
    /// The first segments FFmpeg opened since the load (its "Opening" log lines), until one is placed.
    private(set) var openedSegments: [String] = []
    /// The segment the load asked FFmpeg to start with, by its media sequence number (`nil`: where FFmpeg starts by
    /// default).
    private(set) var startSequence: Int?

    /// FFmpeg opens the same segment of every variant at first: the segments kept until one is the playing variant's.
    static let openedSegmentsKept = 16

    /// A new load of the primary: its origin is unknown until placed, unless `isKnown` (on demand, libmpv's time is
    /// the engine's).
    mutating func startLoad(startSequence: Int?, isKnown: Bool) {
        self.startSequence = startSequence
        isPlaced = isKnown
        openedSegments = []
    }

    /// Notes a segment FFmpeg opened; `false` when it is not kept (placed already, or enough kept).
    mutating func noteOpened(_ url: String) -> Bool {
        guard !isPlaced, openedSegments.count < Self.openedSegmentsKept else { return false }
        openedSegments.append(url)
        return true
    }

    /// Places libmpv's time 0 at `start`.
    mutating func place(at start: MediaTime) {
        time = start
        isPlaced = true
        openedSegments = []
    }

    /// No segment will be named (no playlist to place it in): libmpv's time is taken as it stands.
    mutating func settle() { isPlaced = true }
}
#endif
