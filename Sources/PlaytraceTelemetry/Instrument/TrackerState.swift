/// What the hub knows of one tracker's playback: flags, counters, accumulated times and the time of the last event
/// of each action. All of it belongs to one playback and is reset when the next one begins (OpenAVT leaked it into
/// the next playback: a second StartTime was wrong, a second StreamLoad was dropped).
public struct TrackerState: Sendable, Hashable {
    /// Identifies the playback (renewed with each).
    public var playbackIdentifier: PlaybackIdentifier?
    /// ``playbackIdentifier`` as text; setting it sets a ``PlaybackIdentifier/text(_:)``.
    public var playbackID: String? {
        get { playbackIdentifier?.description }
        set { playbackIdentifier = newValue.map(PlaybackIdentifier.text) }
    }
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
    /// Whether the content tracker's own player plays a break its stream marks (an interstitial, or a stitched ad
    /// break the stream signals): content time stops, whether or not an ads tracker reports the break.
    public var inStreamBreak = false
    /// Whether the buffering under way is the initial one (before Start), a rebuffer, or one inside a pause or a
    /// seek (flagged, not counted).
    public var bufferKind = BufferKind.none

    // Counters.
    public var countErrors = 0
    public var countStarts = 0
    public var countAds = 0

    // Accumulated times and when blocks began, as nanoseconds on the instrument's clock (time since it started):
    // what the hub adds and subtracts on every event, without `Duration`'s 128-bit arithmetic. The `Duration`
    // properties below read and write them.
    var pauseTotal: Int64 = 0
    var bufferTotal: Int64 = 0
    var seekTotal: Int64 = 0
    var playTotal: Int64 = 0
    var adTotal: Int64 = 0
    var pauseStart: Int64?
    var bufferStart: Int64?
    var seekStart: Int64?
    var adStart: Int64?
    var playAccounted: Int64?
    /// Content play time already carried by events as `deltaPlayTime`, whole milliseconds: the next event that passes
    /// carries the rest, so that the deltas add up to the playback's total whatever the hub drops in between.
    var playReportedMilliseconds = 0
    var requested: Int64?

    public var accumPauseTime: Duration {
        get { .nanoseconds(pauseTotal) }
        set { pauseTotal = ActionTimes.nanoseconds(newValue) }
    }
    public var accumBufferTime: Duration {
        get { .nanoseconds(bufferTotal) }
        set { bufferTotal = ActionTimes.nanoseconds(newValue) }
    }
    public var accumSeekTime: Duration {
        get { .nanoseconds(seekTotal) }
        set { seekTotal = ActionTimes.nanoseconds(newValue) }
    }
    /// Content play time.
    public var accumPlayTime: Duration {
        get { .nanoseconds(playTotal) }
        set { playTotal = ActionTimes.nanoseconds(newValue) }
    }
    public var accumAdTime: Duration {
        get { .nanoseconds(adTotal) }
        set { adTotal = ActionTimes.nanoseconds(newValue) }
    }

    /// When blocks began (time since the instrument started).
    public var pauseBegan: Duration? {
        get { pauseStart.map { .nanoseconds($0) } }
        set { pauseStart = newValue.map(ActionTimes.nanoseconds) }
    }
    public var bufferBegan: Duration? {
        get { bufferStart.map { .nanoseconds($0) } }
        set { bufferStart = newValue.map(ActionTimes.nanoseconds) }
    }
    public var seekBegan: Duration? {
        get { seekStart.map { .nanoseconds($0) } }
        set { seekStart = newValue.map(ActionTimes.nanoseconds) }
    }
    public var adBegan: Duration? {
        get { adStart.map { .nanoseconds($0) } }
        set { adStart = newValue.map(ActionTimes.nanoseconds) }
    }
    /// When content play time was last accounted.
    public var playAccountedAt: Duration? {
        get { playAccounted.map { .nanoseconds($0) } }
        set { playAccounted = newValue.map(ActionTimes.nanoseconds) }
    }
    /// When the playback was requested (the reference of its startup time).
    public var requestedAt: Duration? {
        get { requested.map { .nanoseconds($0) } }
        set { requested = newValue.map(ActionTimes.nanoseconds) }
    }

    /// The time of the last event of each action in this playback, by the action's time-since attribute.
    public var lastActionTimes = ActionTimes()

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

    /// Whether content is playing now: started, not finished, not paused, buffering, seeking, in an ad, or in a
    /// break of the stream's.
    public var isPlayingContent: Bool {
        didStart && !didFinish && !isPaused && !isBuffering && !isSeeking && !inAd && !inStreamBreak
    }

    /// Forgets the previous playback; the next one begins with this identifier.
    public mutating func beginPlayback(id: String) {
        beginPlayback(identifier: .text(id))
    }

    /// Forgets the previous playback; the next one begins with this identifier.
    public mutating func beginPlayback(identifier: PlaybackIdentifier) {
        let count = playbackCount
        // The time list's storage is kept for the next playback (emptied), not grown again from nothing.
        var times = ActionTimes()
        swap(&times, &lastActionTimes)
        times.removeAll()
        self = TrackerState()
        playbackIdentifier = identifier
        playbackCount = count + 1
        lastActionTimes = times
    }
}

/// When each action last happened in a playback, by the action's time-since attribute, in the order the actions
/// first happened: a short list searched by identifier (a playback sees a few dozen actions at most), with times in
/// nanoseconds so that the time since one is a subtraction.
public struct ActionTimes: Sendable, Hashable, Sequence {
    public struct Entry: Sendable, Hashable {
        public let attribute: Attribute
        /// Nanoseconds on the instrument's clock.
        public var nanoseconds: Int64

        /// When the action happened as an event sees it: for the event's own action (`current`), the time it had
        /// before (`previous`; `nil`: never, and the event carries no value for it), for the others, this one.
        @inlinable
        public func time(current: UInt32, previous: Int64?) -> Int64? {
            attribute.id == current ? previous : nanoseconds
        }
    }

    @usableFromInline var entries: [Entry] = []

    public init() {}

    /// Lends the entries (for hot paths, which read them in place).
    @inlinable
    func withEntries<Result>(_ body: (borrowing [Entry]) throws -> Result) rethrows -> Result {
        try body(entries)
    }

    /// The time an action (by its time-since attribute) last happened.
    public subscript(attribute: Attribute) -> Duration? {
        get { entries.first { $0.attribute == attribute }.map { .nanoseconds($0.nanoseconds) } }
        set {
            let index = entries.firstIndex { $0.attribute == attribute }
            switch (index, newValue) {
            case (let index?, let time?): entries[index].nanoseconds = Self.nanoseconds(time)
            case (nil, let time?): entries.append(Entry(attribute: attribute, nanoseconds: Self.nanoseconds(time)))
            case (let index?, nil): entries.remove(at: index)
            case (nil, nil): break
            }
        }
    }

    public var isEmpty: Bool { entries.isEmpty }

    /// Forgets every time, keeping the storage when nobody else holds it.
    mutating func removeAll() {
        while !entries.isEmpty { entries.removeLast() }
    }

    /// When an action (by its time-since attribute) last happened, in nanoseconds.
    func nanoseconds(of attribute: Attribute) -> Int64? {
        for entry in entries where entry.attribute.id == attribute.id { return entry.nanoseconds }
        return nil
    }

    /// Records that an action (by its time-since attribute) happened at `nanoseconds`; returns when it happened
    /// before (`nil`: never in this playback).
    @discardableResult
    mutating func record(_ attribute: Attribute, nanoseconds: Int64) -> Int64? {
        if let index = entries.firstIndex(where: { $0.attribute.id == attribute.id }) {
            let previous = entries[index].nanoseconds
            entries[index].nanoseconds = nanoseconds
            return previous
        }
        entries.append(Entry(attribute: attribute, nanoseconds: nanoseconds))
        return nil
    }

    public func makeIterator() -> IndexingIterator<[Entry]> { entries.makeIterator() }

    /// A duration in whole nanoseconds (the instrument's clocks do not go finer).
    static func nanoseconds(_ duration: Duration) -> Int64 {
        Int64(truncatingIfNeeded: duration.attoseconds / 1_000_000_000)
    }
}
