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
    private let transport: any HTTPTransport
    private let output: ConsoleOutput
    /// Where telemetry goes, when asked for.
    var telemetry: TelemetrySetup?
    /// A cap on the variants.
    var variantLimits = VariantLimits.none
    /// Ctrl-C and SIGTERM: the session ends as it normally does when one arrives.
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
    private let report = DemoReport()
    /// The ad breaks announced, as they were when announced (a break is announced again when it changes: its end
    /// signalled, its duration known), and those entered.
    private var signalledBreaks: [String: SignalledAdBreak] = [:]
    private var enteredBreaks: Set<String> = []

    init(clock: any Clock<Duration>, transport: any HTTPTransport, output: ConsoleOutput) {
        self.clock = clock
        self.transport = transport
        self.output = output
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
        let items = entries.map { entry in
            var adapters = [
                DemoTracker.adapter(configuration: .init(name: entry.metadata.title, output: output, report: report)) {
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
                            engine: engine.factory(clock: clock, transport: transport, headless: configuration))
        player.variantLimits = variantLimits
        script?.onAction = { [output] step, time in
            output.message("script: at \(time.timecode) \(Self.describe(step.action))")
        }
        player.play()
        keepLastWords(at: .zero)
        let interval: Duration = .milliseconds(250)
        let statusEvery = output.isTerminal ? 1 : 20
        var ticks = 0
        var lastItem: PlayerItem?
        var startOfLast: MediaTime?
        let stopwatch = Stopwatch(clock: clock)
        var limitNotReached: String?
        while true {
            if let item = player.currentItem, item !== lastItem, let index = items.firstIndex(where: { $0 === item }) {
                lastItem = item
                output.message("▶ \(entries[index].metadata.title) — \(entries[index].metadata.subtitle)")
            }
            do { try await clock.sleep(for: interval) } catch { break }
            if interruption?.signal != nil {
                output.endStatus()
                output.message("interrupted at \(player.time.timecode)")
                break
            }
            if let item = lastItem { announceBreaks(of: item, player.engineSnapshot.adBreaks, at: player.time) }
            if script?.stopRequested == true {
                output.endStatus()
                output.message("stopped by the script at \(player.time.timecode)")
                break
            }
            ticks += 1
            if ticks % statusEvery == 0 { output.status(statusLine(player)) }
            if ticks % 4 == 0 { keepLastWords(at: player.time) }
            if player.error != nil, player.currentItem === items.last { break }
            if player.playbackState == .ended, player.currentItem === items.last { break }
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
        if let summaryJSONPath {
            do {
                try writeSummary(to: summaryJSONPath, verdict: verdict)
            } catch {
                output.message(CommandFailure("--summary-json \(summaryJSONPath)", error: error).description)
                verdict.findings.append(.init(kind: .summaryFile, text: "--summary-json could not be written"))
            }
        }
        // From here, quitting at once leaves the summary just written.
        interruption?.lastWords {}
        output.message(verdict.line)
        return verdict.succeeded
    }

    /// What a second signal (quit at once) writes to `--summary-json`: the session as known now, marked failed and
    /// interrupted.
    private func keepLastWords(at playhead: MediaTime) {
        guard let interruption, let path = summaryJSONPath else { return }
        var summary = Self.quitSummary(reason: "quit at once by a second signal at \(playhead.timecode), "
                                        + "before the session's end: this is what was known then")
        summary["playhead"] = playhead.seconds
        if let ads { summary["beacons"] = ads.beaconsJSON() }
        if let telemetry { summary["qoe"] = Self.qoeJSON(telemetry) }
        interruption.writeOnQuit(summary, to: path)
    }

    /// The session's QoE metrics by content, for `--summary-json`.
    private static func qoeJSON(_ telemetry: TelemetrySetup) -> [String: [String: Double]] {
        var qoe: [String: [String: Double]] = [:]
        for (content, name, value) in telemetry.metricValues { qoe[content, default: [:]][name] = value }
        return qoe
    }

    /// A summary for a session that quit at once.
    static func quitSummary(reason: String) -> [String: Any] {
        ["succeeded": false,
         "verdict": ["succeeded": false, "playback": "interrupted", "interrupted": true, "reasons": [reason],
                     "accepted": [String]()] as [String: Any]]
    }

    /// The summary for machines: the items' outcomes, the QoE metrics, and the ad beacons with their delivery.
    private func writeSummary(to path: String, verdict: SessionVerdict) throws {
        var summary: [String: Any] = ["succeeded": verdict.succeeded, "verdict": verdict.json]
        if let telemetry { summary["qoe"] = Self.qoeJSON(telemetry) }
        if let ads {
            summary["ads"] = ads.countsJSON()
            summary["beacons"] = ads.beaconsJSON()
        }
        let data = try JSONSerialization.data(withJSONObject: summary, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: URL(fileURLWithPath: path))
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

    /// Names each ad break when the engine first reports it (a live stream's as they appear) and when it changes,
    /// and again when the playhead enters it.
    private func announceBreaks(of item: PlayerItem, _ breaks: [SignalledAdBreak], at time: MediaTime) {
        let itemKey = String(describing: ObjectIdentifier(item))
        for signal in breaks {
            let key = itemKey + signal.id
            if signalledBreaks[key] != signal {
                signalledBreaks[key] = signal
                output.message("ad break \(signal.id) signalled: \(signal.source) at \(signal.start?.timecode ?? "?")"
                    + (signal.duration.map { " for " + Format.seconds($0.seconds) } ?? "")
                    + (signal.isClosed ? "" : " (open)"))
            }
            guard signal.timeRange?.contains(time) ?? false, enteredBreaks.insert(key).inserted else { continue }
            output.message("ad break \(signal.id) (\(signal.source), "
                + "\(signal.duration.map { Format.seconds($0.seconds) } ?? "open"))")
        }
    }

    private func statusLine(_ player: Player) -> String {
        let snapshot = player.engineSnapshot
        var parts = [player.playbackState.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0),
                     player.time.timecode + (snapshot.duration.map { " / " + $0.timecode } ?? "")]
        if player.isBuffering { parts.append("buffering") }
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
