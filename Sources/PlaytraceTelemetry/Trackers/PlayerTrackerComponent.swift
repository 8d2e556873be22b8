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

    /// Completes an event with what the player last reported; attributes the emitter set (the new bit rate of a
    /// quality change, say) are kept.
    func initEvent(_ event: inout Event, instrument: Instrument, tracker: TrackerID) -> Bool {
        let current = snapshot.withLock { $0 }
        func fill(_ attribute: Attribute, _ value: AttributeValue?) {
            if let value, event[attribute] == nil { event[attribute] = value }
        }
        fill(.trackerTarget, "Player")
        fill(.sessionId, .string(sessionID))
        fill(.engine, .string(engine))
        fill(.platform, .string(platform))
        if let metadata = current.metadata {
            fill(.contentId, metadata.contentID.map(AttributeValue.string))
            fill(.title, metadata.title.map(AttributeValue.string))
            fill(.source, metadata.source.map(AttributeValue.string))
            fill(.streamId, metadata.streamID.map(AttributeValue.string))
        }
        guard let properties = current.properties else { return true }
        fill(.position, .int(Self.position(properties, capturedAt: current.capturedAt, now: event.time).duration.milliseconds))
        if properties.streamType == .onDemand, properties.seekableTimeRange.end > .zero {
            fill(.duration, .int(properties.seekableTimeRange.end.duration.milliseconds))
        }
        if let variant = properties.metrics.variant {
            if variant.bandwidth > 0 { fill(.bitrate, .int(variant.bandwidth)) }
            fill(.variant, .int(variant.index))
        }
        if let size = properties.presentationSize {
            fill(.resolutionWidth, .int(size.width))
            fill(.resolutionHeight, .int(size.height))
        }
        fill(.isMuted, .bool(properties.isMuted))
        fill(.volume, .int(Int((properties.volume * 100).rounded())))
        if let audio = properties.mediaSelection[.audio] { fill(.language, .string(audio.language ?? audio.name)) }
        if let subtitles = properties.mediaSelection[.subtitles] {
            fill(.subtitles, .string(subtitles.language ?? subtitles.name))
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
