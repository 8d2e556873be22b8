import PlaytraceCore
import PlaytracePlayer

/// What the session's trackers saw of each item: the summary's lines, the verdict's outcomes, the summary's items.
@MainActor
final class ItemOutcomes {
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
            bytesReceived: metrics.bytesReceived, requestCount: metrics.requestCount,
            playedSeconds: metrics.playedDuration.seconds))
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
