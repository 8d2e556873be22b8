import Foundation
import PlaytraceCore
import PlaytraceHeadless
import PlaytraceHLS
import PlaytraceNetwork
import PlaytracePlayer

/// Plays one URL with the headless engine, narrating events and a status line, and ends with a summary.
struct PlaybackSession: Sendable {
    struct Outcome: Sendable {
        var succeeded: Bool
        var snapshot: EngineSnapshot
    }

    let clock: any Clock<Duration>
    let transport: any HTTPTransport
    let output: ConsoleOutput
    var maximumBandwidth: Int?
    var adBreaks: [AdBreakSignal] = []

    init(clock: any Clock<Duration>, transport: any HTTPTransport, output: ConsoleOutput, maximumBandwidth: Int? = nil,
         adBreaks: [AdBreakSignal] = []) {
        self.clock = clock
        self.transport = transport
        self.output = output
        self.maximumBandwidth = maximumBandwidth
        self.adBreaks = adBreaks
    }

    /// Plays until the end, a fatal error, or `limit` seconds of media time.
    func run(url: URL, limit: Double?) async -> Outcome {
        let engine = HeadlessEngine(clock: clock, transport: transport)
        let events = engine.events()
        if let maximumBandwidth { await engine.setVariantLimits(VariantLimits(maximumBandwidth: maximumBandwidth)) }
        await engine.load(EngineSource(url: url))
        await engine.play()
        let narrator = Narrator(output: output, adBreaks: adBreaks)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await narrator.narrate(events) }
            group.addTask { await self.watch(engine, narrator: narrator, limit: limit) }
            await group.next()
            group.cancelAll()
        }
        let snapshot = await engine.snapshot()
        await engine.stop()
        output.endStatus()
        let summary = await narrator.summary(snapshot)
        for line in summary { output.message(line) }
        return Outcome(succeeded: snapshot.status != .failed, snapshot: snapshot)
    }

    /// Refreshes the status line every second of clock time; returns when the media-time limit is reached.
    private func watch(_ engine: HeadlessEngine, narrator: Narrator, limit: Double?) async {
        var startPlayhead: Double?
        let interval: Duration = output.isTerminal ? .milliseconds(250) : .seconds(5)
        while !Task.isCancelled {
            do { try await clock.sleep(for: interval) } catch { return }
            let snapshot = await engine.snapshot()
            await narrator.sample(snapshot)
            output.status(statusLine(snapshot, inAd: await narrator.adBreak(at: snapshot.playhead) != nil))
            if snapshot.status == .playing, startPlayhead == nil { startPlayhead = snapshot.playhead.seconds }
            if let limit, let start = startPlayhead, snapshot.playhead.seconds - start >= limit { return }
        }
    }

    private func statusLine(_ snapshot: EngineSnapshot, inAd: Bool) -> String {
        var parts = [snapshot.status.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0),
                     snapshot.playhead.timecode]
        if let duration = snapshot.duration { parts[1] += " / " + duration.timecode }
        if let date = snapshot.streamDate { parts.append(date.iso8601) }
        parts.append("buffer " + Format.seconds(snapshot.bufferedAhead.seconds))
        if let variant = snapshot.currentVariant {
            let resolution = variant.height.map { "\($0)p" } ?? "audio"
            parts.append("variant \(variant.index) \(resolution) " + Format.bitrate(Double(variant.bandwidth)))
        }
        if let estimate = snapshot.estimatedThroughput { parts.append("net " + Format.bitrate(estimate)) }
        if inAd { parts.append("[ad]") }
        return parts.joined(separator: "  ")
    }
}

/// Prints notable engine events and keeps what the summary needs.
actor Narrator {
    let output: ConsoleOutput
    let adBreaks: [AdBreakSignal]
    private var switchesUp = 0
    private var switchesDown = 0
    private var failedRequests = 0
    private var errors: [EngineError] = []
    private var lastPlayhead: Double?
    private var lastBandwidth: Int?
    private var weightedBits = 0.0
    private var playedSeconds = 0.0
    private var announcedBreaks: Set<String> = []

    init(output: ConsoleOutput, adBreaks: [AdBreakSignal]) {
        self.output = output
        self.adBreaks = adBreaks
    }

    func adBreak(at time: MediaTime) -> AdBreakSignal? {
        adBreaks.first { $0.timeRange?.contains(time) ?? false }
    }

    func narrate(_ events: AsyncStream<EngineEvent>) async {
        for await event in events {
            switch event {
            case .loaded(let type, let duration, let variants):
                output.message("loaded: \(type.rawValue)" + (duration.map { ", \($0.timecode)" } ?? "")
                    + ", \(variants.count) variant(s): " + variants.map { Format.bitrate(Double($0.bandwidth)) }.joined(separator: ", "))
            case .firstFrame(let startup): output.message("first frame after " + Format.seconds(startup))
            case .stallBegan(let at): output.message("stall at \(at.timecode)")
            case .stallEnded(let after): output.message("stall ended after " + Format.seconds(after))
            case .variantSwitched(let from, let to, let reason):
                if let from {
                    if to.bandwidth > from.bandwidth { switchesUp += 1 } else { switchesDown += 1 }
                    output.message("variant \(from.index) → \(to.index) (\(Format.bitrate(Double(to.bandwidth))), \(reason.rawValue))")
                }
            case .request(let record):
                if !record.succeeded { failedRequests += 1 }
            case .error(let error):
                errors.append(error)
                output.message((error.isFatal ? "error: " : "warning: ") + error.description)
                if error.isFatal { return }
            case .ended:
                return
            case .rangeSkipped(let range):
                output.message("skipped blocked range \(range)")
            case .mediaOptionSelected(let option, let kind):
                output.message("\(kind.rawValue): " + (option?.name ?? "off"))
            case .seekBegan, .seekEnded, .statusChanged, .rateChanged, .playlistRefreshed:
                break
            }
        }
    }

    func sample(_ snapshot: EngineSnapshot) {
        let playhead = snapshot.playhead.seconds
        if let last = lastPlayhead, let bandwidth = lastBandwidth, playhead > last {
            weightedBits += Double(bandwidth) * (playhead - last)
            playedSeconds += playhead - last
        }
        lastPlayhead = playhead
        lastBandwidth = snapshot.currentVariant?.bandwidth
        if let adBreak = adBreak(at: snapshot.playhead), !announcedBreaks.contains(adBreak.id) {
            announcedBreaks.insert(adBreak.id)
            output.message("ad break \(adBreak.id) (\(adBreak.source.rawValue), \(adBreak.duration.map { Format.seconds($0.seconds) } ?? "open"))")
        }
    }

    func summary(_ snapshot: EngineSnapshot) -> [String] {
        sample(snapshot)
        let result: String
        switch snapshot.status {
        case .ended: result = "played to the end"
        case .failed: result = "failed: \(snapshot.error?.description ?? "unknown error")"
        default: result = "stopped at \(snapshot.playhead.timecode) (\(snapshot.status.rawValue))"
        }
        return [
            "Summary",
            "  result            \(result)",
            "  stream            \(snapshot.streamType.rawValue)" + (snapshot.duration.map { ", \($0.timecode)" } ?? ""),
            "  startup time      " + (snapshot.startupTime.map(Format.seconds) ?? "no first frame"),
            "  stalls            \(snapshot.stallCount) (" + Format.seconds(snapshot.stallDuration) + ")",
            "  variant switches  \(snapshot.variantSwitchCount) (up \(switchesUp), down \(switchesDown))",
            "  average bitrate   " + (playedSeconds > 0 ? Format.bitrate(weightedBits / playedSeconds) : "n/a"),
            "  bytes             " + Format.bytes(snapshot.bytesReceived) + " in \(snapshot.requestCount) requests (\(failedRequests) failed)",
            "  errors            " + (errors.isEmpty ? "none" : "\(errors.count): " + errors.map(\.description).joined(separator: "; ")),
        ]
    }
}
