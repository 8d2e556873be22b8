import Foundation
import PlaytraceCore
public import PlaytracePlayer

/// What ``PlayerTelemetryTracker`` needs to know about an item, mapped from the item's metadata by its adapter.
public struct TelemetryMetadata: Sendable, Hashable {
    /// Identifies the content (a URN, a media id): the `contentId` dimension.
    public var contentID: String?
    public var title: String?
    /// The URL played.
    public var source: String?
    /// Identifies the stream, when the service has an id for it.
    public var streamID: String?

    public init(contentID: String? = nil, title: String? = nil, source: String? = nil, streamID: String? = nil) {
        self.contentID = contentID
        self.title = title
        self.source = source
        self.streamID = streamID
    }
}

/// Drives an ``Instrument`` from a `Player`: every standard playback action the player can observe, with the
/// playhead, duration, bit rate, resolution, source, audio language, subtitles, mute, volume and title on each
/// event.
///
/// Actions: PlayerSet and MediaRequest when the item's session begins; StreamLoad when its asset is ready; Start at
/// the first frame; BufferBegin/BufferFinish for the initial buffering and for stalls; SeekBegin/SeekFinish;
/// PauseBegin/PauseFinish; AdBreakBegin/AdBreakFinish while the player plays an interstitial or a stitched break the
/// stream signals (content time stops; see ``HubCore``); QualityChangeUp/QualityChangeDown at variant switches;
/// Error (with `isFatal`) for
/// failures and warnings; End at the end of the item; Stop when the session ends otherwise (the hub closes a
/// session stopped before Start as abandoned).
///
/// ```swift
/// let instrument = Instrument(hub: HubCore(), metricalc: MetricalcCore(), backends: [influx])
/// instrument.ready()
/// let item = PlayerItem.simple(url: url, metadata: media, trackerAdapters: [
///     PlayerTelemetryTracker.adapter(configuration: .init(instrument: instrument, sessionID: viewer),
///                                    behavior: .mandatory) { media in
///         TelemetryMetadata(contentID: media.id, title: media.title, source: url.absoluteString)
///     },
/// ])
/// ```
public final class PlayerTelemetryTracker: PlayerItemTracker {
    public struct Configuration: Sendable {
        public var instrument: Instrument
        /// Identifies the viewing session (one player, several items): the `sessionId` dimension.
        public var sessionID: String
        /// The engine's name: the `engine` dimension.
        public var engine: String
        /// The platform: the `platform` dimension.
        public var platform: String

        /// - Parameters:
        ///   - instrument: the instrument the tracker's events go to.
        ///   - sessionID: the viewing session's identifier (a new random one by default).
        ///   - engine: the engine's name, the `engine` dimension.
        ///   - platform: the platform, the `platform` dimension (this one by default).
        public init(instrument: Instrument, sessionID: String? = nil, engine: String = "headless",
                    platform: String = Self.currentPlatform) {
            self.instrument = instrument
            self.sessionID = sessionID ?? UUID().uuidString.lowercased()
            self.engine = engine
            self.platform = platform
        }

        /// The platform this code runs on.
        public static var currentPlatform: String {
            #if os(Linux)
            "linux"
            #elseif os(iOS)
            "ios"
            #elseif os(tvOS)
            "tvos"
            #elseif os(macOS)
            "macos"
            #elseif os(visionOS)
            "visionos"
            #else
            "other"
            #endif
        }
    }

    private let instrument: Instrument
    private let component: PlayerTrackerComponent
    private let trackerID: TrackerID
    private var previous: TrackerProperties?
    private var reportedMetricEvents = 0
    private var hasStarted = false
    /// The player, for handing it new progress boundaries when the stream's breaks change.
    private weak var player: Player?
    /// The stream's signalled breaks as last seen, and whether the playhead is in one of them or in an interstitial.
    private var adBreaks: [SignalledAdBreak] = []
    private var inStitchedBreak = false
    private var inInterstitial = false

    public init(configuration: Configuration) {
        instrument = configuration.instrument
        component = PlayerTrackerComponent(sessionID: configuration.sessionID, engine: configuration.engine,
                                           platform: configuration.platform)
        trackerID = instrument.addTracker(component)
    }

    isolated deinit {
        instrument.removeTracker(trackerID)
    }

    /// The viewing session the tracker reports under.
    public var sessionIdentifier: String? { component.sessionID }

    public func enable(for player: Player) {
        previous = nil
        reportedMetricEvents = 0
        hasStarted = false
        self.player = player
        let properties = player.properties
        component.update(properties, at: instrument.elapsed)
        emit(.playerSet)
        emit(.mediaRequest)
        if properties.isBuffering { emit(.bufferBegin) }
        (inStitchedBreak, inInterstitial) = (false, false)
        updateBreaks(properties.adBreaks)
        setBreak(stitched: properties.adBreaks.contains { $0.isStitched(at: properties.time) },
                 interstitial: properties.interstitial != nil)
        previous = properties
    }

    /// While the stream signals stitched breaks, progress reports end at their edges, so that content time stops
    /// and resumes exactly there (a property update may come a second late); without any, the engine need not
    /// report progress for this tracker.
    public var observesProgress: Bool { adBreaks.contains(where: \.isStitched) }

    public var progressBoundaries: [PlaybackBoundary] {
        adBreaks.filter(\.isStitched).flatMap { signal -> [PlaybackBoundary] in
            guard let start = signal.start else { return [] }
            return [.time(start)] + (signal.duration.map { [.time(start + $0)] } ?? [])
        }
    }

    public func updateProgress(_ progress: PlaybackProgress) {
        guard progress.interstitial == nil else { return }
        setBreak(stitched: adBreaks.contains { $0.isStitched(at: progress.to) }, interstitial: inInterstitial)
    }

    private func updateBreaks(_ breaks: [SignalledAdBreak]) {
        guard breaks != adBreaks else { return }
        let before = (progressBoundaries, observesProgress)
        adBreaks = breaks
        if progressBoundaries != before.0 || observesProgress != before.1 { player?.updateProgressBoundaries() }
    }

    /// Emits AdBreakBegin when the playhead enters a stitched break or an interstitial, AdBreakFinish when it
    /// leaves the last of them: the hub stops content time in between.
    private func setBreak(stitched: Bool, interstitial: Bool) {
        let wasInBreak = inStitchedBreak || inInterstitial
        (inStitchedBreak, inInterstitial) = (stitched, interstitial)
        let isInBreak = stitched || interstitial
        if isInBreak != wasInBreak { emit(isInBreak ? .adBreakBegin : .adBreakFinish) }
    }

    public func updateMetadata(to metadata: TelemetryMetadata) {
        component.update(metadata)
    }

    public func updateProperties(to properties: TrackerProperties) {
        component.update(properties, at: instrument.elapsed)
        defer { previous = properties }
        // Where the playhead is against the breaks comes with each progress report (every movement, seeks included).
        updateBreaks(properties.adBreaks)
        guard let previous else { return }
        if !hasStarted, previous.isBuffering != properties.isBuffering {
            emit(properties.isBuffering ? .bufferBegin : .bufferFinish)
        }
        guard previous.playbackState != properties.playbackState else { return }
        switch properties.playbackState {
        case .paused where hasStarted: emit(.pauseBegin)
        case .playing where previous.playbackState == .paused && hasStarted: emit(.pauseFinish)
        case .ended: emit(.end)
        default: break
        }
    }

    public func updateMetricEvents(to events: [MetricEvent]) {
        for event in events.dropFirst(reportedMetricEvents) { report(event) }
        reportedMetricEvents = events.count
    }

    public func disable(with properties: TrackerProperties) {
        component.update(properties, at: instrument.elapsed)
        if properties.playbackState != .ended { emit(.stop) }
    }

    private func report(_ event: MetricEvent) {
        switch event.kind {
        case .asset:
            emit(.streamLoad)
        case .firstFrame:
            if previous?.isBuffering == true { emit(.bufferFinish) }
            hasStarted = true
            emit(.start)
        case .stall:
            emit(.bufferBegin)
        case .resumeAfterStall:
            emit(.bufferFinish)
        case .seekBegan:
            emit(.seekBegin)
        case .seekEnded:
            emit(.seekFinish)
        case .variantSwitched(let from, let to, _):
            // The event carries the new variant: the player's properties still describe the old one.
            var attributes = AttributeList()
            if to.bandwidth > 0 { attributes[.bitrate] = .int(to.bandwidth) }
            attributes[.variant] = .int(to.index)
            if let width = to.width, let height = to.height {
                attributes[.resolutionWidth] = .int(width)
                attributes[.resolutionHeight] = .int(height)
            }
            instrument.emit(to.bandwidth >= from.bandwidth ? .qualityChangeUp : .qualityChangeDown, tracker: trackerID,
                            attributes: attributes)
        case .failure(let error):
            emitError(error, isFatal: true)
        case .warning(let error):
            emitError(error, isFatal: false)
        case .interstitialBegan:
            setBreak(stitched: inStitchedBreak, interstitial: true)
        case .interstitialEnded:
            setBreak(stitched: inStitchedBreak, interstitial: false)
        case .metadata, .rateChanged, .itemTransition, .interstitialAssetFailed:
            break
        }
    }

    private func emitError(_ error: EngineError, isFatal: Bool) {
        var attributes = AttributeList()
        attributes[.errorDescription] = .string(error.description)
        attributes[.isFatal] = .bool(isFatal)
        instrument.emit(.error, tracker: trackerID, attributes: attributes)
    }

    private func emit(_ action: Action) {
        instrument.emit(action, tracker: trackerID)
    }
}
