/// What the hub knows of one tracker's playback: flags, counters, accumulated times and the time of the last event
/// of each action. All of it belongs to one playback and is reset when the next one begins (OpenAVT leaked it into
/// the next playback: a second StartTime was wrong, a second StreamLoad was dropped).
public struct TrackerState: Sendable, Hashable {
    /// Identifies the playback (renewed with each).
    public var playbackID: String?
    public var playbackCount = 0

    // What happened in this playback.
    public var didMediaRequest = false
    public var didPlayerSet = false
    public var didStreamLoad = false
    public var didStart = false
    public var didFinish = false

    // What is under way.
    public var isPaused = false
    public var isBuffering = false
    public var isSeeking = false
    public var inAdBreak = false
    public var inAd = false
    /// Whether the buffering under way is the initial one (before Start), a rebuffer, or one inside a pause or a
    /// seek (flagged, not counted).
    public var bufferKind = BufferKind.none

    // Counters.
    public var countErrors = 0
    public var countStarts = 0
    public var countAds = 0

    // Accumulated times.
    public var accumPauseTime: Duration = .zero
    public var accumBufferTime: Duration = .zero
    public var accumSeekTime: Duration = .zero
    public var accumPlayTime: Duration = .zero
    public var accumAdTime: Duration = .zero

    /// When blocks began (time since the instrument started).
    public var pauseBegan: Duration?
    public var bufferBegan: Duration?
    public var seekBegan: Duration?
    public var adBegan: Duration?
    /// When content play time was last accounted.
    public var playAccountedAt: Duration?
    /// When the playback was requested (the reference of its startup time).
    public var requestedAt: Duration?

    /// The time of the last event of each action in this playback, by the action's time-since attribute.
    public var lastActionTimes: [Attribute: Duration] = [:]

    public enum BufferKind: String, Sendable, Hashable {
        case none
        /// Before the first frame: part of startup, never a rebuffer.
        case initial
        /// Playback ran dry.
        case rebuffer
        /// Inside a pause or a seek: flagged, not a rebuffer.
        case inBlock
    }

    public init() {}

    /// Whether content is playing now: started, not finished, not paused, buffering, seeking, or in an ad.
    public var isPlayingContent: Bool {
        didStart && !didFinish && !isPaused && !isBuffering && !isSeeking && !inAd
    }

    /// Forgets the previous playback; the next one begins with this identifier.
    public mutating func beginPlayback(id: String) {
        let count = playbackCount
        self = TrackerState()
        playbackID = id
        playbackCount = count + 1
    }
}
