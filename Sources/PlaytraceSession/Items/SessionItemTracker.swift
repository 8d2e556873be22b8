import PlaytraceCore
import PlaytracePlayer

/// The session's own tracker of each item: says every life-cycle call it receives and the metric events as they
/// arrive, notes them on the timeline, and records the item's outcome when it is disabled.
final class SessionItemTracker: PlayerItemTracker {
    struct Configuration: Sendable {
        /// The name the tracker prints (its item's title, known before the metadata arrives).
        let name: String
        /// The item's URL and its place in the playlist, for the summary.
        var url = ""
        var index = 0
        let output: any SessionOutput
        let outcomes: ItemOutcomes
        /// Where the session's timeline is kept, if it is.
        var recorder: SessionRecorder?
        /// The session's clock, on which the first frame is timed as the telemetry times StartTime.
        let stopwatch: Stopwatch
        /// Told the item's startup as soon as its first frame shows.
        var onFirstFrame: (@MainActor @Sendable (Duration) -> Void)?
    }

    private let output: any SessionOutput
    private let outcomes: ItemOutcomes
    private let title: String
    private let url: String
    private let index: Int
    private let recorder: SessionRecorder?
    private var propertyUpdates = 0
    private var reportedEvents = 0
    private var failure: EngineError?
    /// When the first frame showed, counted from the item's media request, to the millisecond: StartTime's
    /// definition, on the same instants (the tracker's enable, when the item becomes current, and the first-frame
    /// event's arrival), so that the summary's two figures are one.
    private var firstFrame: Duration?
    private let stopwatch: Stopwatch
    private let onFirstFrame: (@MainActor @Sendable (Duration) -> Void)?
    /// When the item was requested (it became current and its trackers were enabled), on the session's clock.
    private var requestedAt: Duration = .zero
    /// When each interstitial under way began, on the session's time.
    private var interstitialsBegan: [String: Duration] = [:]

    init(configuration: Configuration) {
        output = configuration.output
        outcomes = configuration.outcomes
        title = configuration.name
        url = configuration.url
        index = configuration.index
        recorder = configuration.recorder
        stopwatch = configuration.stopwatch
        onFirstFrame = configuration.onFirstFrame
        output.message("[tracker \(title)] init")
    }

    isolated deinit {
        output.message("[tracker \(title)] deinit")
    }

    func enable(for player: Player) {
        requestedAt = stopwatch.elapsed
        propertyUpdates = 0
        reportedEvents = 0
        output.message("[tracker \(title)] enable")
    }

    func updateMetadata(to metadata: String) {
        output.message("[tracker \(title)] metadata → \(metadata)")
    }

    func updateProperties(to properties: TrackerProperties) {
        propertyUpdates += 1
    }

    func updateMetricEvents(to events: [MetricEvent]) {
        for event in events.dropFirst(reportedEvents) {
            if case .failure(let error) = event.kind { failure = error }
            // An item loaded ahead of its turn is requested when it becomes current (its transition), not when its
            // session began: StartTime counts from there.
            if case .firstFrame = event.kind, firstFrame == nil {
                // Whole milliseconds, as StartTime is counted.
                let parts = (stopwatch.elapsed - requestedAt).components
                let startup = Duration.milliseconds(parts.seconds * 1_000 + parts.attoseconds / 1_000_000_000_000_000)
                firstFrame = startup
                onFirstFrame?(startup)
            }
            var text = if case .firstFrame = event.kind, let firstFrame {
                "first frame after \(Format.seconds(firstFrame)) (from the media request)"
            } else {
                Self.describe(event.kind)
            }
            // The primary's playhead stands still while an interstitial plays: its end says how long it lasted.
            if case .interstitialBegan(let interstitial) = event.kind { interstitialsBegan[interstitial.id] = event.time }
            if case .interstitialEnded(let interstitial, _) = event.kind,
               let began = interstitialsBegan.removeValue(forKey: interstitial.id) {
                text += " after \(Format.seconds(event.time - began))"
            }
            output.message("[tracker \(title)] metric event at \(event.playhead.timecode): \(text)")
            recorder?.note(event, item: index, text: text)
        }
        reportedEvents = events.count
    }

    func disable(with properties: TrackerProperties) {
        output.message("[tracker \(title)] disable at \(properties.time.timecode) after \(propertyUpdates) property updates")
        outcomes.add(title: title, url: url, properties: properties, failure: failure, firstFrame: firstFrame)
    }

    static func describe(_ kind: MetricEvent.Kind) -> String {
        switch kind {
        case .metadata(let experience, let service):
            "metadata (service \(Format.seconds(service)), waited \(Format.seconds(experience)))"
        case .asset(let experience): "asset ready (waited \(Format.seconds(experience)))"
        case .firstFrame(let startup): "first frame after \(Format.seconds(startup))"
        case .stall: "stall"
        case .resumeAfterStall(let duration): "resumed after a \(Format.seconds(duration)) stall"
        case .seekBegan(let target): "seek to \(target.timecode)"
        case .seekEnded(let position, let completed): "seek ended at \(position.timecode)" + (completed ? "" : " (replaced)")
        case .rateChanged(let rate): "rate \(rate)"
        case .variantSwitched(let from, let to, let reason):
            "variant \(from.index) → \(to.index) (\(Format.bitrate(Double(to.bandwidth))), \(reason))"
        case .itemTransition: "item transition"
        case .failure(let error): "failure: \(error)"
        case .warning(let error): "warning: \(error)"
        case .interstitialBegan(let event):
            "interstitial \(event.id) began" + (event.duration.map { " (\(Format.seconds($0.seconds)) scheduled)" } ?? "")
        case .interstitialEnded(let event, .played): "interstitial \(event.id) played"
        case .interstitialEnded(let event, .skipped): "interstitial \(event.id) skipped"
        case .interstitialEnded(let event, .failed(let reason)): "interstitial \(event.id) failed: \(reason)"
        case .interstitialAssetFailed(let event, let index, let reason): "interstitial \(event.id) asset \(index + 1) skipped: \(reason)"
        }
    }
}
