/// The session metrics a report shows, with their definitions in the words of PlaytraceTelemetry's Metrics article
/// (a test keeps the two the same).
enum MetricDefinitions {
    struct Metric: Sendable {
        /// The metric's name in the backends.
        var name: String
        var definition: String
        /// Its value in a record, formatted.
        var value: @Sendable (SessionSummary.QoE) -> String?
    }

    static let all: [Metric] = [
        Metric(name: "StartTime",
               definition: "from the playback's first `MediaRequest` or `StreamLoad` to `Start`",
               value: { $0.startTimeMilliseconds.map(milliseconds) }),
        Metric(name: "StallCount", definition: "the playback's rebuffers (as above)", value: { $0.stallCount.map(String.init) }),
        Metric(name: "StallDuration", definition: "their total duration",
               value: { $0.stallDurationMilliseconds.map(milliseconds) }),
        Metric(name: "RebufferingRatio", definition: "`StallDuration / WatchedTime` (0 when nothing was watched)",
               value: { $0.rebufferingRatio.map { String(format: "%.4f", $0) } }),
        Metric(name: "WatchedTime",
               definition: "from the playback's request to its close, less the viewer's pauses; startup, stalls and seeks "
                   + "count; 0 for a playback that never started",
               value: { $0.watchedTimeMilliseconds.map(milliseconds) }),
        Metric(name: "ContentPlaybackTime",
               definition: "content actually played: time with the playhead moving in content; ads, interstitials and "
                   + "the stream's signalled stitched breaks excluded",
               value: { $0.contentPlaybackTimeMilliseconds.map(milliseconds) }),
        Metric(name: "AverageBitrate",
               definition: "the variant bit rate weighted by the content time played at it (left out when nothing played)",
               value: { $0.averageBitrateBitsPerSecond.map(Format.bitrate) }),
        Metric(name: "BitrateSwitchesUp", definition: "`QualityChangeUp` events", value: { $0.bitrateSwitchesUp.map(String.init) }),
        Metric(name: "BitrateSwitchesDown", definition: "`QualityChangeDown` events",
               value: { $0.bitrateSwitchesDown.map(String.init) }),
        Metric(name: "ExitBeforeVideoStart", definition: "1 when the playback closed before `Start` without a fatal error",
               value: { $0.exitBeforeVideoStart.map(String.init) }),
        Metric(name: "PlaybackFailure",
               definition: "1 when a fatal `Error` (`isFatal` true) happened; `failureStage` `start` (before `Start`) or "
                   + "`playback`",
               value: { $0.playbackFailure.map(String.init) }),
    ]

    private static func milliseconds(_ value: Double) -> String { Format.seconds(value / 1000) }
}
