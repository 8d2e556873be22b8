import ArgumentParser
import Foundation
import PlaytraceCore
import PlaytraceHeadless
import PlaytraceHLS
import PlaytraceLab
import PlaytraceNetwork
import PlaytracePlayer
import PlaytraceSession

struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Start the lab in-process and play a two-item playlist through the Player, with a tracker that prints its life cycle.")

    @OptionGroup var common: CommonOptions
    @OptionGroup var telemetryOptions: TelemetryOptions
    @OptionGroup var sessionOptions: SessionOptions
    @OptionGroup var engineOptions: EngineOptions

    @Option(help: ArgumentHelp(
        "How many times faster than real time the demo runs (the lab and the engine share the clock).",
        discussion: "4 by default; 1, real time, with --engine mpv (libmpv decodes in real time)."))
    var speed: Double?

    @Option(help: ArgumentHelp(
        "With --engine mpv: the directory of real media the lab serves (scripts/generate-media makes it with ffmpeg).",
        discussion: "The lab then serves real media for its streams (interstitials, vod, live and dvr: its content looped), the ones libmpv plays."))
    var mediaDir = ".build-media"

    @Option(help: """
        The stream to play: interstitials (on demand, a stitched ad break and interstitials whose ads come from the \
        lab's VAST server), vod, live or dvr (live and DVR play for --duration seconds).
        """)
    var stream: String = "interstitials"

    @Option(help: "For live streams, how many seconds of media time to play.")
    var duration: Double = 60

    @Option(help: """
        The ad tracking: harmonic or mediatailor (the lab's SSAI session; interstitials served as VAST are tracked \
        too), signaling (the manifest's SVTA2053 ad-ID date ranges), vast (the VAST interstitials only) or none.
        """)
    var ads: String = "harmonic"

    /// Where the demo writes its report unless `--report` says otherwise: a new file of its own in the temporary
    /// directory (`playtrace-demo-report-XXXXXXXX.html`, created exclusively and private), never a fixed name that
    /// another user of a shared machine could have planted a link at.
    static func newReportPath() throws -> String {
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).path
        do {
            return try AtomicFile.createPrivate(in: directory, prefix: "playtrace-demo-report", suffix: ".html")
        } catch {
            throw PlainFailure("the report in \(directory)", error: error)
        }
    }

    /// The fastest the demo may run: the lab and the engine still have to do a second's work in real time.
    static let speedRange = 0.01...1_000.0

    /// The speed the demo runs at: the one asked for, or the default for the engine.
    var effectiveSpeed: Double { speed ?? (engineOptions.engine == .mpv ? 1 : 4) }

    func validate() throws {
        if engineOptions.engine == .mpv {
            if let speed, speed != 1 {
                throw ValidationError("--engine mpv plays in real time: --speed must be 1")
            }
            guard FileManager.default.fileExists(atPath: mediaDir + "/lab/content") else {
                throw ValidationError(PlainText.safe(
                    "--engine mpv: no real media in \(mediaDir) (make it with scripts/generate-media, which needs ffmpeg)"))
            }
        }
        guard Self.speedRange.contains(effectiveSpeed) else {
            throw ValidationError("--speed must be between \(Self.speedRange.lowerBound) and \(Int(Self.speedRange.upperBound))")
        }
        guard ["interstitials", "vod", "live", "dvr"].contains(stream) else {
            throw ValidationError("--stream is interstitials, vod, live or dvr")
        }
        guard duration > 0, duration <= 1e9 else { throw ValidationError("--duration must be a positive number of seconds") }
        guard ["harmonic", "mediatailor", "signaling", "vast", "none"].contains(ads) else {
            throw ValidationError("--ads is harmonic, mediatailor, signaling, vast or none")
        }
        guard ads != "signaling" || stream == "interstitials" else {
            throw ValidationError("--ads signaling: only the interstitials stream carries the signaling")
        }
    }

    @MainActor
    func run() async throws {
        common.bootstrapLogging()
        let interruption = SessionInterruption()
        defer { interruption.stop() }
        let startedAt = ISO8601.now()
        if let path = sessionOptions.summaryJSON, let data = try? SessionSummary.quit(
            command: "demo", startedAt: startedAt, reason: "quit at once during start-up, before playback began").encoded() {
            interruption.writeOnQuit(data, to: path)
        }
        let clock = ScaledClock(speed: effectiveSpeed)
        var labConfiguration = LabConfiguration()
        if engineOptions.engine == .mpv { labConfiguration.mediaDirectory = mediaDir }
        let lab = LabServer(clock: clock, configuration: labConfiguration)
        let port = try await lab.start()
        let succeeded: Bool
        do {
            succeeded = try await AsyncHTTPClientTransport.scoped(clock: clock) { client in
                try await play(base: "http://127.0.0.1:\(port)", clock: clock,
                               transport: RecordingTransport(client, stopwatch: Stopwatch(clock: clock)),
                               interruption: interruption, startedAt: startedAt)
            }
        } catch {
            await lab.stop()
            throw error
        }
        await lab.stop()
        print("lab served \(lab.requests.all.count) requests")
        if let status = interruption.exitStatus { throw ExitCode(status) }
        if !succeeded { throw ExitCode.failure }
    }

    @MainActor
    private func play(base: String, clock: ScaledClock, transport: RecordingTransport,
                      interruption: SessionInterruption, startedAt: String) async throws -> Bool {
        let output = ConsoleOutput(plain: sessionOptions.plain)
        interruption.announce { output.notice($0) }
        let telemetrySettings = telemetryOptions.settings
        let outbox = try SessionOutbox(path: telemetryOptions.outboxPath,
                                       couriers: SessionTelemetry.couriers(for: telemetrySettings, transport: transport,
                                                                           warn: TelemetryOptions.warn),
                                       transport: transport)
        let telemetry = try await SessionTelemetry(settings: telemetrySettings, clock: clock, output: output,
                                                   outbox: outbox)
        var items: [ViewerSession.Item] = []
        // libmpv plays the lab's real media: its synthetic fMP4 stream, which the headless engine plays after the
        // first item, is no media a decoder accepts.
        let decodes = engineOptions.engine == .mpv
        // The first item is the lab's SSAI session on the stream, its ads tracked (the DVR stream has no session).
        var adSetup: SessionAds?
        // The stream with interstitials is played in its VAST flavour when its ads are tracked, in its JSON one
        // otherwise (an asset list in VAST needs the VAST reader to be played at all).
        let labStream = stream == "interstitials" && ads != "none" ? "vast-interstitials" : stream
        if let format = SessionAds.AdFormat(rawValue: ads), stream != "dvr" {
            let setup = await SessionAds(settings: SessionAds.Settings(format: format, outboxPath: telemetryOptions.outboxPath),
                                      clock: clock, transport: transport, outbox: outbox)
            let session = switch format {
            case .harmonic: "\(base)/ssai/harmonic/\(labStream)/master.m3u8"
            case .mediaTailor: "\(base)/ssai/mediatailor/v1/session/lab/origin/\(labStream)/master.m3u8"
            case .vast, .signaling: "\(base)/\(labStream)/master.m3u8"
            }
            _ = try await setup.start(mediaUrl: URL(string: session)!)
            adSetup = setup
        }
        let adNote = adSetup.map {
            $0.settings.format == .vast ? " — VAST ad tracking" : " — SSAI session, \($0.settings.format.rawValue) ad tracking"
        } ?? ""
        if stream == "interstitials" {
            let first = adSetup?.session.sessionInfo?.manifestUrl ?? URL(string: "\(base)/\(labStream)/master.m3u8")!
            items.append(ViewerSession.Item(url: first, metadata: ItemMetadata(
                title: "Lab interstitials",
                subtitle: "a stitched break; pre-, mid- and post-roll interstitials" + (labStream == stream ? "" : " from a VAST ad server")
                    + adNote,
                chapters: [], timeRanges: []), tracksAds: adSetup != nil))
            if !decodes {
                items.append(ViewerSession.Item(url: URL(string: "\(base)/fmp4/master.m3u8")!, metadata: ItemMetadata(
                    title: "Lab fMP4", subtitle: "byte ranges, initialization section, AES-128 key",
                    chapters: [], timeRanges: [])))
            }
        } else if stream == "vod" {
            let first = adSetup?.session.sessionInfo?.manifestUrl ?? URL(string: "\(base)/vod/master.m3u8")!
            items.append(ViewerSession.Item(url: first, metadata: ItemMetadata(
                title: "Lab VOD", subtitle: "three variants, SCTE-35 and CUE ad breaks, an interstitial" + adNote,
                chapters: [Chapter(id: "1", title: "Opening", timeRange: MediaTimeRange(start: 0, end: 12)),
                           Chapter(id: "2", title: "Main", timeRange: MediaTimeRange(start: 12, end: 40))],
                timeRanges: [TimeRange(kind: .blocked, range: MediaTimeRange(start: 30, end: 33))]), tracksAds: adSetup != nil))
            if !decodes {
                items.append(ViewerSession.Item(url: URL(string: "\(base)/fmp4/master.m3u8")!, metadata: ItemMetadata(
                    title: "Lab fMP4", subtitle: "byte ranges, initialization section, AES-128 key",
                    chapters: [], timeRanges: [])))
            }
        } else {
            let url = adSetup?.session.sessionInfo?.manifestUrl ?? URL(string: "\(base)/\(stream)/master.m3u8")!
            items.append(ViewerSession.Item(url: url, metadata: ItemMetadata(
                title: "Lab \(stream)", subtitle: "played for \(Int(duration)) s" + adNote, chapters: [], timeRanges: []),
                tracksAds: adSetup != nil))
        }
        print("Playtrace demo — lab on \(base), playing \(items.count) item(s) through the Player "
            + (decodes ? "on libmpv (real media, decoded) in real time" : "at \(effectiveSpeed)× real time"))
        var configuration = ViewerSession.Configuration(items: items, command: "demo", startedAt: startedAt)
        if stream == "live" || stream == "dvr" { configuration.durationLimit = .saturating(milliseconds: duration * 1_000) }
        configuration.telemetry = telemetry
        configuration.ads = adSetup
        configuration.outbox = outbox
        configuration.engine = engineOptions.choice
        configuration.script = sessionOptions.viewerScript.map { ViewerScriptRunner(script: $0, clock: clock) }
        // The lab's VAST server answers one ad with a media file it does not serve, to show the error reporting:
        // the demo's verdict names the reports it sends as accepted.
        configuration.accepted = Set(sessionOptions.accept).union([.vastErrors])
        return await SessionRun.run(configuration, clock: clock, transport: transport, output: output,
                                    interruption: interruption, reportPath: try sessionOptions.report ?? Self.newReportPath(),
                                    summaryJSONPath: sessionOptions.summaryJSON)
    }
}
