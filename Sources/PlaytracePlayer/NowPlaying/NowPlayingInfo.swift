public import PlaytraceCore

/// What the system shows about the active player's current item (Control Center, lock screen, car displays).
public struct NowPlayingInfo: Sendable, Hashable {
    public var title: String?
    public var subtitle: String?
    /// The artwork, loaded only by the integration that shows it.
    public var artworkSource: ImageSource
    /// The playhead; for a DVR stream, from the start of its window.
    public var elapsedTime: MediaTime
    /// The duration: of on-demand content, or of a DVR stream's window (so the scrubber spans what one can seek).
    public var duration: MediaTime?
    /// The playback rate (0 while paused).
    public var rate: Double
    /// Whether the stream is live without a window to seek in (without a duration to show).
    public var isLive: Bool
    /// The title of the chapter at the playhead.
    public var chapterTitle: String?

    public init(title: String? = nil, subtitle: String? = nil, artworkSource: ImageSource = .none,
                elapsedTime: MediaTime = .zero, duration: MediaTime? = nil, rate: Double = 0, isLive: Bool = false,
                chapterTitle: String? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.artworkSource = artworkSource
        self.elapsedTime = elapsedTime
        self.duration = duration
        self.rate = rate
        self.isLive = isLive
        self.chapterTitle = chapterTitle
    }
}
