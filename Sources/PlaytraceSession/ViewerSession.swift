public import Foundation
import PlaytraceAds
import PlaytraceCore
public import PlaytraceHeadless
import PlaytraceHLS
public import PlaytraceNetwork
public import PlaytracePlayer

/// One viewer: the Player on an engine, with the session's own tracker (its narration and each item's outcome),
/// telemetry, ad tracking, a scripted viewer and a recorder of its timeline and requests. ``run()`` plays the items
/// in order and returns what happened: the versioned summary (``SessionSummary``, `schemas/session-summary.schema.json`)
/// with its verdict, from which ``HTMLReport`` draws the report.
///
/// `playtrace play` and `playtrace demo` are this session with a terminal for its output; an app runs it the same
/// way and gets the same summary and report.
@MainActor
public final class ViewerSession {
    /// An item to play.
    public struct Item {
        public let url: URL
        public let metadata: ItemMetadata
        /// Whether the item is the ad session's stream (``Configuration/ads``).
        public var tracksAds: Bool

        public init(url: URL, metadata: ItemMetadata, tracksAds: Bool = false) {
            self.url = url
            self.metadata = metadata
            self.tracksAds = tracksAds
        }
    }

    /// Everything a session is made of and told, given once.
    public struct Configuration {
        /// The items, played in order.
        public var items: [Item]
        /// What runs the session (`play`, `demo`, an app's name): the summary's `command`.
        public var command: String
        /// When the session started (ISO 8601), for the summary.
        public var startedAt: String
        /// How much media time of the last item to play (live streams play until stopped otherwise). A stream that
        /// stalls ends too, after ``ViewerSession/wallClockAllowance(for:)`` more of wall-clock time.
        public var durationLimit: Duration?
        /// The engine that plays.
        public var engine = EngineChoice()
        /// The headless engine's settings (its tick, buffers, ABR); the session adds its ad tracking's asset list
        /// reader.
        public var headless = HeadlessEngine.Configuration()
        /// How much of its timeline and requests the session keeps for its summary (its transport's limits are its
        /// own, given with it).
        public var recordLimits = SessionRecordLimits.session
        /// How often the session looks at its player: samples it for the timeline, checks the limits and the
        /// interruption, updates the live view (every 250 ms; a probe of thousands of viewers looks less often).
        public var tick: Duration = .milliseconds(250)
        /// A cap on the variants.
        public var variantLimits = VariantLimits.none
        /// What the engines send media requests through (headers, a user agent); the session's transport when nil.
        public var mediaTransport: (any HTTPTransport)?
        /// Where telemetry goes.
        public var telemetry: SessionTelemetry?
        /// The ad tracking of the items that track ads.
        public var ads: SessionAds?
        /// The run's outbox (telemetry batches and beacons), for its own summary lines once both have finished.
        public var outbox: SessionOutbox?
        /// A scripted viewer.
        public var script: ViewerScriptRunner?
        /// The shortfalls that do not fail the session: the verdict still names them.
        public var accepted: Set<SessionVerdict.Shortfall> = []
        /// Asked at every ``tick``: when it says yes, the session ends as its normal end does (summary,
        /// telemetry and beacons flushed) and its verdict says it was interrupted (the command line's Ctrl-C).
        public var isInterrupted: @Sendable () -> Bool = { false }
        /// Given the session as known now, every second of session time: a lighter summary (no samples, no request
        /// list) marked incomplete, for a process that may be killed before the end to leave behind.
        public var checkpoint: (@MainActor (SessionSummary) -> Void)?
        /// The viewer's identity in telemetry (its `sessionId`); a random one when nil.
        public var viewerID: String?
        /// Told each item's startup (from its media request to its first frame, as the summary has it) as soon as
        /// its first frame shows: the probe's live figures.
        public var onFirstFrame: (@MainActor @Sendable (Duration) -> Void)?
        /// Whether the session finishes the telemetry and outbox it was given when it ends (delivering what is left
        /// and saying so): `false` when many sessions share them (the probe), whose owner finishes them once.
        public var finishesDelivery = true

        public init(items: [Item], command: String = "session", startedAt: String = ISO8601.now()) {
            self.items = items
            self.command = command
            self.startedAt = startedAt
        }
    }

    let configuration: Configuration
    private let clock: any Clock<Duration>
    /// The session's transport, which notes its requests; its stopwatch is the summary's.
    let transport: RecordingTransport
    let output: any SessionOutput
    var telemetry: SessionTelemetry? { configuration.telemetry }
    var ads: SessionAds? { configuration.ads }
    let outcomes = ItemOutcomes()
    private let breaks = BreakAnnouncer()
    private let live = LiveView()
    let recorder: SessionRecorder
    private var lastSignals: [SignalledAdBreak] = []
    /// Why ``stop(_:)`` asked the session to end, until it does.
    private var stopReason: String?

    /// - Parameters:
    ///   - configuration: the items and everything the session is made of.
    ///   - clock: the session's clock (a `ScaledClock` plays faster than real time).
    ///   - transport: the HTTP transport, recording each request for the summary.
    ///   - output: where the session's narration goes.
    public init(configuration: Configuration, clock: any Clock<Duration>, transport: RecordingTransport,
                output: any SessionOutput = DiscardedOutput()) {
        self.configuration = configuration
        self.clock = clock
        self.transport = transport
        self.output = output
        recorder = SessionRecorder(stopwatch: transport.stopwatch, limits: configuration.recordLimits)
    }

    /// How much wall-clock time a session with a media-time limit may take beyond it: `limit` plus this much (at
    /// least 15 s, and as long as the limit itself for longer ones) before it counts as stalled and ends.
    public static func wallClockAllowance(for limit: Duration) -> Duration { max(.seconds(15), limit) }

    /// Ends the session at its next tick as its normal end does (summary, telemetry and beacons flushed), with
    /// `reason` in its narration (`stopped: …`); its verdict is not an interruption.
    public func stop(_ reason: String) {
        if stopReason == nil { stopReason = reason }
    }

    /// Plays the items in order, up to the end of the last, the ``Configuration/durationLimit``, an interruption or
    /// the script's stop; then ends telemetry and ad tracking (delivering what is left within their bounds) and
    /// returns the summary with its verdict. The summary's lines and the verdict's are said through the output.
    public func run() async -> SessionResult {
        // Only the sleep between ticks is awaited here: the set-up and each tick are synchronous and out of line, so
        // that the frame a viewer keeps for its whole life stays small (a probe holds thousands of them).
        let (player, items, adTelemetry) = startPlayer()
        defer { withExtendedLifetime(adTelemetry) {} }
        var state = TickState(tick: configuration.tick, showsPanel: output.showsPanel,
                              narrates: !(output is DiscardedOutput), clock: clock)
        while true {
            noteCurrentItem(of: player, items: items, state: &state)
            do { try await clock.sleep(for: state.interval) } catch { break }
            guard tick(player, items: items, state: &state) else { break }
        }
        output.endStatus()
        return await finish(player: player, items: items, entries: configuration.items,
                            limitNotReached: state.limitNotReached)
    }

    /// What ``run()`` keeps from one tick to the next.
    private struct TickState {
        let interval: Duration
        /// The panel at every tick; the status line every 5 s.
        let statusEvery: Int
        /// The checkpoint every second.
        let checkpointEvery: Int
        let narrates: Bool
        let stopwatch: Stopwatch
        var ticks = 0
        var lastItem: PlayerItem?
        var lastIndex = 0
        var startOfLast: MediaTime?
        var limitNotReached: String?

        init(tick: Duration, showsPanel: Bool, narrates: Bool, clock: any Clock<Duration>) {
            interval = max(tick, .milliseconds(1))
            statusEvery = showsPanel ? 1 : max(1, Int((Duration.seconds(5) / interval).rounded()))
            checkpointEvery = max(1, Int((Duration.seconds(1) / interval).rounded()))
            self.narrates = narrates
            stopwatch = Stopwatch(clock: clock)
        }
    }

    /// The items with their trackers, and the player that plays them, playing.
    @inline(never)
    private func startPlayer() -> (Player, [PlayerItem], AdTelemetryBridge?) {
        let entries = configuration.items
        let script = configuration.script
        let viewer = configuration.viewerID ?? UUID().uuidString.lowercased()
        let items = entries.enumerated().map { index, entry in
            var adapters = [
                SessionItemTracker.adapter(configuration: .init(name: entry.metadata.title, url: entry.url.absoluteString,
                                                         index: index, output: output, outcomes: outcomes,
                                                         recorder: recorder, stopwatch: transport.stopwatch,
                                                         onFirstFrame: configuration.onFirstFrame)) {
                    (metadata: ItemMetadata) in "\(metadata.title): \(metadata.subtitle)"
                },
            ]
            if let telemetry { adapters.append(telemetry.adapter(sessionID: viewer)) }
            if entry.tracksAds, let ads { adapters.append(AdTracker.adapter(configuration: ads.session)) }
            if let script { adapters.append(ViewerScriptTracker.adapter(configuration: script)) }
            return PlayerItem.simple(url: entry.url, metadata: entry.metadata, trackerAdapters: adapters)
        }
        var adTelemetry: AdTelemetryBridge?
        if let telemetry, let ads {
            let bridge = AdTelemetryBridge(instrument: telemetry.instrument, sessionID: viewer)
            ads.session.adPlaybackObserver = { bridge.handle($0) }
            adTelemetry = bridge
        }
        var headless = configuration.headless
        headless.assetListReader = ads?.assetListReader
        var playerConfiguration = Player.Configuration()
        playerConfiguration.advancesAfterFailure = true
        playerConfiguration.metricsHistoryLimit = configuration.recordLimits.playerMetricsHistory
        let player = Player(items: items, configuration: playerConfiguration, clock: clock,
                            engine: configuration.engine.factory(clock: clock, transport: configuration.mediaTransport ?? transport,
                                                                 headless: headless))
        player.variantLimits = configuration.variantLimits
        script?.onAction = { [output] step, time in
            output.message("script: " + (step.interstitial.map { "in \(PlainText.safe($0)) " } ?? "")
                + "at \(time.timecode) \(Self.describe(step.action))")
        }
        player.play()
        checkpoint(at: .zero)
        return (player, items, adTelemetry)
    }

    /// Says and records an item that became current.
    @inline(never)
    private func noteCurrentItem(of player: Player, items: [PlayerItem], state: inout TickState) {
        guard let item = player.currentItem, item !== state.lastItem,
              let index = items.firstIndex(where: { $0 === item }) else { return }
        let entry = configuration.items[index]
        state.lastItem = item
        state.lastIndex = index
        output.message("▶ \(entry.metadata.title) — \(entry.metadata.subtitle)")
        recorder.itemStarted(index, title: entry.metadata.title)
    }

    /// One tick of the session: the breaks said, the player sampled, the status shown; false when the session ends.
    @inline(never)
    private func tick(_ player: Player, items: [PlayerItem], state: inout TickState) -> Bool {
        let entries = configuration.items
        if configuration.isInterrupted() {
            output.endStatus()
            output.message("interrupted at \(player.time.timecode)")
            return false
        }
        // The item now current, found once per tick.
        let currentIndex = player.currentItem.flatMap { item in items.firstIndex { $0 === item } }
        if let item = state.lastItem {
            let index = state.lastIndex
            let signals = player.engineSnapshot.adBreaks
            if state.narrates {
                for line in breaks.lines(item: String(describing: ObjectIdentifier(item)), breaks: signals, at: player.time) {
                    output.message(line)
                }
            }
            if signals != lastSignals {
                lastSignals = signals
                recorder.noteBreaks(BreakAnnouncer.group(signals), item: index)
            }
            recorder.sample(player, item: index)
        }
        if let stopReason {
            output.endStatus()
            output.message("stopped: \(stopReason) at \(player.time.timecode)")
            return false
        }
        if configuration.script?.stopRequested == true {
            output.endStatus()
            output.message("stopped by the script at \(player.time.timecode)")
            return false
        }
        if let ads, player.currentInterstitial == nil, let index = currentIndex, entries[index].tracksAds {
            let snapshot = player.engineSnapshot
            if let date = snapshot.streamDate { ads.dateOffset = date.secondsSince1970 - snapshot.playhead.seconds }
            ads.retirePassedBreaks(snapshot)
        }
        state.ticks += 1
        if state.ticks % state.statusEvery == 0 {
            if output.showsPanel, let index = currentIndex {
                output.panel(live.lines(player, title: entries[index].metadata.title, item: index, of: items.count, ads: ads,
                                        warnings: warnings))
            } else {
                output.status(statusLine(player))
            }
        }
        if state.ticks % state.checkpointEvery == 0 { checkpoint(at: player.time) }
        if player.error != nil, player.currentItem === items.last { return false }
        // The end of the playlist: no current item any more (or the last one, ended, when it stays current).
        if player.playbackState == .ended, player.currentItem == nil || player.currentItem === items.last { return false }
        let limit = configuration.durationLimit
        if let limit, player.currentItem === items.last, player.playbackState == .playing {
            if state.startOfLast == nil, !player.isBuffering { state.startOfLast = player.time }
            if let start = state.startOfLast, player.time - start >= MediaTime(limit) { return false }
        }
        if let limit, state.stopwatch.elapsed >= limit + Self.wallClockAllowance(for: limit) {
            let played = state.startOfLast.map { (player.time - $0).seconds } ?? 0
            let notReached = "--duration \(Format.seconds(limit)) not reached: \(Format.seconds(played)) of media played in "
                + "\(Format.seconds(state.stopwatch.elapsed)) (the stream stalled)"
            state.limitNotReached = notReached
            output.endStatus()
            output.message("stopped: " + notReached)
            return false
        }
        return true
    }

    /// The end of ``run()``: the engines stopped, telemetry, ads and the outbox finished within their bounds, the
    /// verdict and the summary. A function of its own, so that what it holds is not in the frame a viewer keeps for
    /// its whole life (a probe holds thousands).
    private func finish(player: Player, items: [PlayerItem], entries: [Item],
                        limitNotReached: String?) async -> SessionResult {
        // The engine's own state now (the Player's copy is refreshed periodically): what was played up to the end.
        let lastSnapshot = await player.engines.first?.snapshot() ?? player.engineSnapshot
        let trackedItem = zip(entries, items).first { $0.0.tracksAds }?.1
        let currentItem = player.currentItem
        player.removeAllItems()
        // Let the engines stop before the transport shuts down.
        try? await clock.sleep(for: .milliseconds(100))
        // What the ad-tracked item played: its engine now, or as it was when its session closed.
        let adSnapshot = trackedItem.flatMap { $0 === currentItem ? lastSnapshot : $0.finalSnapshot }
        output.message("Summary")
        for line in outcomes.lines { output.message(line) }
        var verdict = SessionVerdict(items: outcomes.outcomes, accepted: configuration.accepted)
        verdict.interrupted = configuration.isInterrupted()
        if let limitNotReached {
            if verdict.playback == .played {
                verdict.playback = .stalled
                verdict.playbackText = "stalled"
            }
            verdict.findings.append(.init(kind: .stalled, text: limitNotReached))
        }
        // An item that failed before its tracker saw it end is a failure all the same.
        if verdict.playback != .failed, let error = items.lazy.compactMap(\.error).first {
            verdict.playback = .failed
            verdict.playbackText = "failed (\(error))"
            verdict.findings.append(.init(kind: .playbackFailed, text: verdict.playbackText))
        }
        if let telemetry, configuration.finishesDelivery {
            for line in await telemetry.finish() { output.message(line) }
            for problem in telemetry.problems {
                output.message("telemetry: " + problem)
                verdict.findings.append(.init(kind: .telemetry, text: "telemetry: " + problem))
            }
        }
        if let ads {
            let (lines, adsVerdict, findings) = await ads.finish(played: adSnapshot ?? lastSnapshot)
            for line in lines { output.message(line) }
            verdict.adsText = adsVerdict
            verdict.findings += findings
        }
        if let outbox = configuration.outbox, configuration.finishesDelivery {
            let (lines, findings) = await outbox.finish()
            for line in lines { output.message(line) }
            verdict.findings += findings
        }
        return SessionResult(summary: summary(verdict: verdict), verdict: verdict)
    }

    private static func describe(_ action: ViewerScript.Action) -> String {
        switch action {
        case .pause(let seconds): "pause for \(Format.seconds(seconds))"
        case .seek(let position): "seek to \(MediaTime(seconds: position).timecode)"
        case .mute: "mute"
        case .unmute: "unmute"
        case .rate(let rate): "rate \(rate)"
        case .skip: "skip the interstitial"
        case .stop: "stop"
        }
    }

    /// The warnings and failures of the session so far, and the ad tracking's last error, for the live view.
    private var warnings: [String] {
        var warnings = recorder.timeline.events.suffix(200).filter { $0.kind == "warning" || $0.kind == "failure" }
            .suffix(LiveView.warningCount).map { "\($0.text) (at \(MediaTime(seconds: $0.playheadSeconds).timecode))" }
        if let error = ads?.session.latestError { warnings.append("ads: " + PlainText.safe(error)) }
        return warnings
    }

    private func statusLine(_ player: Player) -> String {
        let snapshot = player.engineSnapshot
        var parts = [player.playbackState.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0),
                     player.time.timecode + (snapshot.duration.map { " / " + $0.timecode } ?? "")]
        if player.isBuffering { parts.append("buffering") }
        if let (latency, _) = snapshot.liveLatency { parts.append(String(format: "latency %.1f s", latency.seconds)) }
        if let chapter = player.currentChapter?.title { parts.append("chapter \(chapter)") }
        if let variant = snapshot.currentVariant {
            parts.append("variant \(variant.index) " + Format.bitrate(Double(variant.bandwidth)))
        }
        if let ad = ads?.status { parts.append(ad) }
        if let interstitial = player.currentInterstitial {
            let asset = interstitial.assetIndex.map { " asset \($0 + 1)/\(interstitial.assets.count)" } ?? " (asset list)"
            parts.append("interstitial \(interstitial.event.id)\(asset) \(interstitial.elapsed.timecode)")
        }
        return parts.joined(separator: "  ")
    }
}
