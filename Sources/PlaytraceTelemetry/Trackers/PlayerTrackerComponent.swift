import PlaytraceCore
import PlaytracePlayer
import Synchronization

/// The instrument-side half of ``PlayerTelemetryTracker``: it completes every event with what the player last
/// reported (playhead, duration, bit rate, resolution, audio, volume, title, dimensions) and answers getters.
final class PlayerTrackerComponent: TelemetryTracker, Sendable {
    struct Snapshot: Sendable {
        var properties: TrackerProperties?
        /// When the properties were captured (instrument time): the playhead moves on from there while playing.
        var capturedAt: Duration = .zero
        var metadata: TelemetryMetadata?
    }

    let sessionID: String
    let engine: String
    let platform: String
    private let snapshot = Mutex(Snapshot())

    init(sessionID: String, engine: String, platform: String) {
        self.sessionID = sessionID
        self.engine = engine
        self.platform = platform
    }

    func update(_ properties: TrackerProperties, at time: Duration) {
        snapshot.withLock {
            $0.properties = properties
            $0.capturedAt = time
        }
    }

    func update(_ metadata: TelemetryMetadata) {
        snapshot.withLock { $0.metadata = metadata }
    }

    func instrumentReady(_ instrument: Instrument) {}

    func initEvent(_ event: inout Event, instrument: Instrument, tracker: TrackerID) -> Bool {
        let current = snapshot.withLock { $0 }
        event[.trackerTarget] = "Player"
        event[.sessionId] = .string(sessionID)
        event[.engine] = .string(engine)
        event[.platform] = .string(platform)
        if let metadata = current.metadata {
            if let id = metadata.contentID { event[.contentId] = .string(id) }
            if let title = metadata.title { event[.title] = .string(title) }
            if let source = metadata.source { event[.source] = .string(source) }
            if let stream = metadata.streamID { event[.streamId] = .string(stream) }
        }
        guard let properties = current.properties else { return true }
        event[.position] = .int(Self.position(properties, capturedAt: current.capturedAt, now: event.time).duration.milliseconds)
        if properties.streamType == .onDemand, properties.seekableTimeRange.end > .zero {
            event[.duration] = .int(properties.seekableTimeRange.end.duration.milliseconds)
        }
        if let variant = properties.metrics.variant {
            if variant.bandwidth > 0 { event[.bitrate] = .int(variant.bandwidth) }
            event[.variant] = .int(variant.index)
        }
        if let size = properties.presentationSize {
            event[.resolutionWidth] = .int(size.width)
            event[.resolutionHeight] = .int(size.height)
        }
        event[.isMuted] = .bool(properties.isMuted)
        event[.volume] = .int(Int((properties.volume * 100).rounded()))
        if let audio = properties.mediaSelection[.audio] { event[.language] = .string(audio.language ?? audio.name) }
        if let subtitles = properties.mediaSelection[.subtitles] {
            event[.subtitles] = .string(subtitles.language ?? subtitles.name)
        }
        return true
    }

    /// The playhead at `now`: the captured one, moved on at the playback rate while playing.
    static func position(_ properties: TrackerProperties, capturedAt: Duration, now: Duration) -> MediaTime {
        guard properties.playbackState == .playing, properties.rate > 0, now > capturedAt else { return properties.time }
        let moved = properties.time + MediaTime(now - capturedAt) * properties.rate
        return properties.loadedTimeRange.end > properties.time ? min(moved, properties.loadedTimeRange.end) : moved
    }
}
