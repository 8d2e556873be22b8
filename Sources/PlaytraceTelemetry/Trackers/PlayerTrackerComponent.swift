import PlaytraceCore
import PlaytracePlayer

/// The instrument-side half of ``PlayerTelemetryTracker``: it completes every event with what the player last
/// reported (playhead, duration, bit rate, resolution, audio, volume, title, dimensions) and answers getters.
///
/// All of it but the playhead changes rarely, so it is kept as the events' ``Event/context``, rebuilt only when a
/// value changes; the playhead, which moves with every event, is each event's own attribute.
final class PlayerTrackerComponent: TelemetryTracker, Sendable {
    struct Snapshot: Sendable {
        var properties: TrackerProperties?
        /// When the properties were captured (instrument time): the playhead moves on from there while playing.
        var capturedAt: Duration = .zero
        var metadata: TelemetryMetadata?
        /// The attributes of the properties and metadata above, but the playhead.
        var context = AttributeList()
    }

    let sessionID: String
    let engine: String
    let platform: String
    private let snapshot = Locked(Snapshot())

    init(sessionID: String, engine: String, platform: String) {
        self.sessionID = sessionID
        self.engine = engine
        self.platform = platform
        snapshot.withLock { $0.context = context(of: $0) }
    }

    func update(_ properties: TrackerProperties, at time: Duration) {
        snapshot.withLock {
            $0.properties = properties
            $0.capturedAt = time
            updateContext(&$0)
        }
    }

    func update(_ metadata: TelemetryMetadata) {
        snapshot.withLock {
            $0.metadata = metadata
            updateContext(&$0)
        }
    }

    func instrumentReady(_ instrument: Instrument) {}

    /// Completes an event with what the player last reported; attributes the emitter set (the new bit rate of a
    /// quality change, say) are the event's own, which win over the context.
    func initEvent(_ event: inout Event, instrument: Instrument, tracker: TrackerID) -> Bool {
        let (context, properties, capturedAt) = snapshot.withLock { ($0.context, $0.properties, $0.capturedAt) }
        event.context = context
        if let properties, !event.attributes.contains(.position) {
            event[.position] = .int(Self.position(properties, capturedAt: capturedAt, now: event.time).duration.milliseconds)
        }
        return true
    }

    /// Replaces the context when a value changed (an unchanged one stays the same list, which backends recognise).
    private func updateContext(_ snapshot: inout Snapshot) {
        let context = context(of: snapshot)
        if context != snapshot.context { snapshot.context = context }
    }

    private func context(of snapshot: Snapshot) -> AttributeList {
        var context = AttributeList(capacity: 20)
        func fill(_ attribute: Attribute, _ value: AttributeValue?) {
            if let value { context[attribute] = value }
        }
        fill(.trackerTarget, "Player")
        fill(.sessionId, .string(sessionID))
        fill(.engine, .string(engine))
        fill(.platform, .string(platform))
        if let metadata = snapshot.metadata {
            fill(.contentId, metadata.contentID.map(AttributeValue.string))
            fill(.title, metadata.title.map(AttributeValue.string))
            fill(.source, metadata.source.map(AttributeValue.string))
            fill(.streamId, metadata.streamID.map(AttributeValue.string))
        }
        guard let properties = snapshot.properties else { return context }
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
        return context
    }

    /// The playhead at `now`: the captured one, moved on at the playback rate while playing.
    static func position(_ properties: TrackerProperties, capturedAt: Duration, now: Duration) -> MediaTime {
        guard properties.playbackState == .playing, properties.rate > 0, now > capturedAt else { return properties.time }
        let moved = properties.time + MediaTime(now - capturedAt) * properties.rate
        return properties.loadedTimeRange.end > properties.time ? min(moved, properties.loadedTimeRange.end) : moved
    }
}
