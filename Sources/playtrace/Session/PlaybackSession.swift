import Foundation
import PlaytraceAds
import PlaytraceCore
import PlaytraceHeadless
import PlaytraceHLS
import PlaytraceNetwork
import PlaytracePlayer

/// Plays a playlist through the Player, narrating the player's state, its tracker's life cycle and the ad breaks,
/// and ends with a summary of each item.
@MainActor
final class PlaybackSession {
    struct Entry {
        let url: URL
        let metadata: DemoMetadata
        /// Whether the item is the ad session's stream (``PlaybackSession/ads``).
        var tracksAds = false
    }

    private let clock: any Clock<Duration>
    /// The session's transport, which notes its requests; its stopwatch is the summary's.
    let transport: RecordingTransport
    /// What the engines send media requests through: ``transport``, with `--header` and the user agent.
    var mediaTransport: (any HTTPTransport)?
    let output: ConsoleOutput
    /// `play` or `demo`, and when the command started, for the summary.
    let command: String
    let startedAt: String
    /// Where telemetry goes, when asked for.
    var telemetry: TelemetrySetup?
    /// A cap on the variants.
    var variantLimits = VariantLimits.none
    /// Ctrl-C, SIGTERM and SIGHUP: the session ends as it normally does when one arrives.
    var interruption: SessionInterruption?
    /// The ad tracking of the entries that track ads.
    var ads: AdSetup?
    /// The run's outbox (telemetry batches and beacons), for its own summary lines once both have finished.
    var outbox: RunOutbox?
    /// A scripted viewer.
    var script: ViewerScriptRunner?
    /// Where the summary for machines goes.
    var summaryJSONPath: String?
    /// The shortfalls that do not fail the session (`--accept`).
    var accepted: Set<SessionVerdict.Shortfall> = []
    /// The engine that plays (`--engine`).
    var engine = EngineChoice()
    /// Where a `--report` HTML file goes.
    var reportPath: String?
    let report = DemoReport()
    private let breaks = BreakAnnouncer()
    private let live = LiveView()
    let recorder: SessionRecorder
    private var lastSignals: [SignalledAdBreak] = []

    init(clock: any Clock<Duration>, transport: RecordingTransport, output: ConsoleOutput, command: String,
         startedAt: String) {
        self.clock = clock
        self.transport = transport
        self.output = output
        self.command = command
        self.startedAt = startedAt
        recorder = SessionRecorder(stopwatch: transport.stopwatch)
    }

    /// How much wall-clock time a session with a media-time limit may take beyond it: `limit` plus this much (at
    /// least 15 s, and as long as the limit itself for longer ones) before it counts as stalled and ends.
    static func wallClockAllowance(for limit: Double) -> Double { max(15, limit) }

    /// Plays the entries in order; `limit` stops after that much media time of the last item (live streams), or,
    /// when the stream stalls, after ``wallClockAllowance(for:)`` more of wall-clock time (the verdict says so).
    /// Returns whether every item played without failing.
    func run(_ entries: [Entry], limit: Double?) async -> Bool {
        let clock = self.clock
        let transport = self.transport
        let viewer = UUID().uuidString.lowercased()
        let items = entries.enumerated().map { index, entry in
            var adapters = [
                DemoTracker.adapter(configuration: .init(name: entry.metadata.title, url: entry.url.absoluteString,
                                                         index: index, output: output, report: report,
                                                         recorder: recorder, stopwatch: transport.stopwatch)) {
                    (metadata: DemoMetadata) in "\(metadata.title): \(metadata.subtitle)"
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
        defer { withExtendedLifetime(adTelemetry) {} }
        var configuration = HeadlessEngine.Configuration()
        configuration.assetListReader = ads?.assetListReader
        var playerConfiguration = Player.Configuration()
        playerConfiguration.advancesAfterFailure = true
        let player = Player(items: items, configuration: playerConfiguration, clock: clock,
                            engine: engine.factory(clock: clock, transport: mediaTransport ?? transport,
                                                   headless: configuration))
        player.variantLimits = variantLimits
        script?.onAction = { [output] step, time in
            output.message("script: " + (step.interstitial.map { "in \(PlainText.safe($0)) " } ?? "")
                + "at \(time.timecode) \(Self.describe(step.action))")
        }
        player.play()
        keepLastWords(at: .zero)
        let interval: Duration = .milliseconds(250)
        let statusEvery = output.isTerminal ? 1 : 20
        var ticks = 0
        var lastItem: PlayerItem?
        var lastIndex = 0
        var startOfLast: MediaTime?
        let stopwatch = Stopwatch(clock: clock)
        var limitNotReached: String?
        while true {
            if let item = player.currentItem, item !== lastItem, let index = items.firstIndex(where: { $0 === item }) {
                lastItem = item
                lastIndex = index
                output.message("▶ \(entries[index].metadata.title) — \(entries[index].metadata.subtitle)")
                recorder.itemStarted(index, title: entries[index].metadata.title)
            }
            do { try await clock.sleep(for: interval) } catch { break }
            if interruption?.signal != nil {
                output.endStatus()
                output.message("interrupted at \(player.time.timecode)")
                break
            }
            // The item now current, found once per tick.
            let currentIndex = player.currentItem.flatMap { item in items.firstIndex { $0 === item } }
            if let item = lastItem {
                let index = lastIndex
                let signals = player.engineSnapshot.adBreaks
                for line in breaks.lines(item: String(describing: ObjectIdentifier(item)), breaks: signals, at: player.time) {
                    output.message(line)
                }
                if signals != lastSignals {
                    lastSignals = signals
                    recorder.noteBreaks(BreakAnnouncer.group(signals), item: index)
                }
                recorder.sample(player, item: index)
            }
            if script?.stopRequested == true {
                output.endStatus()
                output.message("stopped by the script at \(player.time.timecode)")
                break
            }
            if let ads, player.currentInterstitial == nil, let index = currentIndex, entries[index].tracksAds {
                let snapshot = player.engineSnapshot
                if let date = snapshot.streamDate { ads.dateOffset = date.secondsSince1970 - snapshot.playhead.seconds }
            }
            ticks += 1
            if ticks % statusEvery == 0 {
                if output.isTerminal, let index = currentIndex {
                    output.panel(live.lines(player, title: entries[index].metadata.title, item: index, of: items.count, ads: ads,
                                            warnings: warnings))
                } else {
                    output.status(statusLine(player))
                }
            }
            if ticks % 4 == 0 { keepLastWords(at: player.time) }
            if player.error != nil, player.currentItem === items.last { break }
            // The end of the playlist: no current item any more (or the last one, ended, when it stays current).
            if player.playbackState == .ended, player.currentItem == nil || player.currentItem === items.last { break }
            if let limit, player.currentItem === items.last, player.playbackState == .playing {
                if startOfLast == nil, !player.isBuffering { startOfLast = player.time }
                if let start = startOfLast, (player.time - start).seconds >= limit { break }
            }
            if let limit, stopwatch.elapsedSeconds >= limit + Self.wallClockAllowance(for: limit) {
                let played = startOfLast.map { (player.time - $0).seconds } ?? 0
                limitNotReached = "--duration \(Format.seconds(limit)) not reached: \(Format.seconds(played)) of media played in "
                    + "\(Format.seconds(stopwatch.elapsedSeconds)) (the stream stalled)"
                output.endStatus()
                output.message("stopped: " + (limitNotReached ?? ""))
                break
            }
        }
        output.endStatus()
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
        for line in report.lines { output.message(line) }
        var verdict = SessionVerdict(items: report.outcomes, accepted: accepted)
        verdict.interrupted = interruption?.signal != nil
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
        if let telemetry {
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
        if let outbox {
            let (lines, findings) = await outbox.finish()
            for line in lines { output.message(line) }
            verdict.findings += findings
        }
        writeRecords(verdict: &verdict)
        // From here, quitting at once leaves the summary just written.
        interruption?.lastWords {}
        output.message(verdict.line)
        return verdict.succeeded
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
