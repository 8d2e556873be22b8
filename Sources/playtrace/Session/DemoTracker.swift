import PlaytraceCore
import PlaytracePlayer

/// The demo's tracker: prints every life-cycle call it receives, and the metric events as they arrive.
final class DemoTracker: PlayerItemTracker {
    struct Configuration: Sendable {
        /// The name the tracker prints (its item's title, known before the metadata arrives).
        let name: String
        /// The item's URL and its place in the playlist, for the summary.
        var url = ""
        var index = 0
        let output: ConsoleOutput
        let report: DemoReport
        /// Where the session's timeline is kept, if it is.
        var recorder: SessionRecorder?
        /// The session's clock, on which the first frame is timed as the telemetry times StartTime.
        let stopwatch: Stopwatch
    }

    private let output: ConsoleOutput
    private let report: DemoReport
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
    /// When the item was requested (it became current and its trackers were enabled), on the session's clock.
    private var requestedAt: Duration = .zero
    /// When each interstitial under way began, on the session's time.
    private var interstitialsBegan: [String: Duration] = [:]

    init(configuration: Configuration) {
        output = configuration.output
        report = configuration.report
        title = configuration.name
        url = configuration.url
        index = configuration.index
        recorder = configuration.recorder
        stopwatch = configuration.stopwatch
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
                firstFrame = .milliseconds(parts.seconds * 1_000 + parts.attoseconds / 1_000_000_000_000_000)
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
        report.add(title: title, url: url, properties: properties, failure: failure, firstFrame: firstFrame)
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

/// What the demo's trackers saw of each session, for the summary.
@MainActor
final class DemoReport {
    private(set) var lines: [String] = []
    /// Each item's outcome, for the verdict.
    private(set) var outcomes: [SessionVerdict.ItemOutcome] = []
    /// Each item's record, for the summary.
    private(set) var items: [SessionSummary.Item] = []

    func add(title: String, url: String, properties: TrackerProperties, failure: EngineError?, firstFrame: Duration?) {
        let metrics = properties.metrics
        items.append(SessionSummary.Item(
            title: title, url: url,
            result: failure != nil ? "failed" : properties.playbackState == .ended ? "ended" : "stopped",
            failure: failure.map { "\($0)" }, streamType: properties.streamType.rawValue, mediaType: properties.mediaType.rawValue,
            startupSeconds: firstFrame?.seconds, endPositionSeconds: properties.time.seconds, stallCount: metrics.stallCount,
            stallSeconds: metrics.stallDuration.seconds, variantSwitchCount: metrics.variantSwitchCount,
            bytesReceived: metrics.bytesReceived, requestCount: metrics.requestCount))
        outcomes.append(SessionVerdict.ItemOutcome(
            title: title, failure: failure.map { "\($0)" }, started: firstFrame != nil, ended: properties.playbackState == .ended,
            stallCount: metrics.stallCount, stallDuration: metrics.stallDuration.seconds))
        let result: String
        if failure != nil {
            // Its reason was said when it happened, and the verdict says it again: not a third time here.
            result = "failed at \(properties.time.timecode)"
        } else if properties.playbackState == .ended {
            result = "played to the end"
        } else {
            result = "stopped at \(properties.time.timecode)"
        }
        lines += [
            "  \(title)",
            "    result            \(result)",
            "    stream            " + Format.streamKind(streamType: properties.streamType.rawValue,
                                                     mediaType: properties.mediaType.rawValue),
            "    first frame       " + (firstFrame.map { Format.seconds($0) + " after the media request (StartTime)" }
                ?? "never shown"),
            "    stalls            \(metrics.stallCount) (" + Format.seconds(metrics.stallDuration) + ")",
            "    variant switches  \(metrics.variantSwitchCount)",
            "    bytes             " + Format.bytes(metrics.bytesReceived) + " in \(metrics.requestCount) requests",
        ]
    }
}

/// The demo items' metadata.
struct DemoMetadata: AssetMetadata {
    let title: String
    let subtitle: String
    let chapters: [Chapter]
    let timeRanges: [TimeRange]
    var source: String? = nil

    var playerMetadata: PlayerMetadata {
        PlayerMetadata(identifier: title, title: title, subtitle: subtitle, chapters: chapters, timeRanges: timeRanges)
    }
}
