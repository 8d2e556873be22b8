import ArgumentParser
import Foundation
import PlaytraceCore
import PlaytraceNetwork
import PlaytracePlayer
import PlaytraceSession

struct Play: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play an HLS or MPEG-DASH stream through the Player (the headless engine, or libmpv with --engine mpv), with a "
            + "status line, its tracker's events, telemetry to the backends given, and a summary.",
        discussion: """
            The session ends with a summary (each item, its QoE metrics, every ad break, ad and tracking event with \
            its state, the delivery of telemetry and beacons) and one verdict line, "verdict: OK — …" or \
            "verdict: FAILED — …" with what fell short: beacons missed, fired without being called for, fired twice, \
            failed or still waiting, delivered more than 1 s after their crossing, VAST error reports, telemetry \
            refused or lost, a stall, an item that failed. What was called for is taken from what the engine played, \
            not from what fired. The exit status follows the verdict (1 when it fails); --accept KIND lets a \
            shortfall pass, still named; --summary-json writes all of it for machines.

            Ads: with --ads harmonic or mediatailor, the URL is the SSAI session URL; the session is set up, its \
            metadata fetched before playback starts and polled while it plays. Beacons fire once each, when the \
            playhead crosses them at rates up to 2.5x (a seek's jump and fast-forwarding fire nothing), and go \
            through the run's outbox, each URL retried on its own; a run killed and started again on the same \
            session and --outbox file fires nothing twice. HLS interstitials are played and tracked in every mode, \
            their VAST asset lists resolved (wrappers followed, five levels).

            Telemetry leaves while the session plays: a batch closes every 5 s and at Start, Error, End, Stop and \
            Next, and the outbox delivers it in the background, retrying 5xx, 429 and network failures (no sooner \
            than Retry-After); 401, 403 and 404 pause the destination and keep its batches; a 400 refuses that batch \
            only. At the end, what is left is delivered within --drain-timeout seconds; with --outbox it waits in \
            the file for the next run (playtrace outbox FILE --deliver).

            Ctrl-C, SIGTERM or SIGHUP ends the session as its normal end does (summary, verdict, telemetry and beacons \
            flushed) and exits 130 or 143; a second signal quits at once. docs/CLI.md explains delivery, durability \
            and the lab at length.
            """)

    @OptionGroup var common: CommonOptions
    @OptionGroup var telemetryOptions: TelemetryOptions
    @OptionGroup var adOptions: AdOptions
    @OptionGroup var sessionOptions: SessionOptions
    @OptionGroup var engineOptions: EngineOptions
    @OptionGroup(title: "Requests") var requestOptions: RequestOptions

    @Argument(help: "The multivariant or media playlist: an http(s) URL (with --ads, the SSAI session URL) or a local file.")
    var url: String

    /// The playlist to play: the URL, or a local file's (an existing path, or a `file://` URL).
    var playlistURL: URL? {
        if let given = URL(string: url), let scheme = given.scheme?.lowercased(), ["http", "https"].contains(scheme) {
            return given
        }
        let path = url.hasPrefix("file://") ? (URL(string: url)?.path ?? "") : url
        var isDirectory: ObjCBool = false
        guard !path.isEmpty, FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue
        else { return nil }
        return URL(fileURLWithPath: path).standardizedFileURL
    }

    @Option(help: """
        Stop after this many seconds of media time (live streams play until stopped otherwise). A stream that stalls \
        ends too, after this long plus as long again (at least 15 s) of wall-clock time, and fails the verdict.
        """)
    var duration: Double?

    @Option(help: "Cap the variants by peak bandwidth, bits per second.")
    var maxBandwidth: Int?

    func validate() throws {
        guard let target = playlistURL, target.isFileURL || target.host?.isEmpty == false else {
            throw ValidationError(PlainText.safe("\(url) is neither an http(s) URL nor a playlist file"))
        }
        if target.isFileURL, adOptions.ads.map({ ["harmonic", "mediatailor"].contains($0) }) == true {
            throw ValidationError("--ads \(adOptions.ads ?? ""): an SSAI session is an http(s) URL, not a file")
        }
        if let port = target.port, !(1...65_535).contains(port) {
            throw ValidationError(PlainText.safe("\(url): the port \(port) is out of range (1-65535)"))
        }
        if let duration, !(duration > 0 && duration <= 1e9) {
            throw ValidationError("--duration must be a positive number of seconds")
        }
        if let maxBandwidth, maxBandwidth <= 0 {
            throw ValidationError("--max-bandwidth must be a positive number of bits per second")
        }
    }

    @MainActor
    func run() async throws {
        common.bootstrapLogging()
        guard let given = playlistURL else { throw ValidationError(PlainText.safe("\(url) is not a URL")) }
        // A URL's user:password is sent to its origin as a player does, and shown nowhere.
        let (target, authorization) = URLRedaction.splitCredentials(given)
        let interruption = SessionInterruption()
        defer { interruption.stop() }
        let startedAt = ISO8601.now()
        if let path = sessionOptions.summaryJSON, let data = try? SessionSummary.quit(
            command: "play", startedAt: startedAt, reason: "quit at once during start-up, before playback began").encoded() {
            interruption.writeOnQuit(data, to: path)
        }
        let clock = ContinuousClock()
        let succeeded = try await AsyncHTTPClientTransport.scoped(clock: clock) { client in
            let transport = RecordingTransport(
                LocalFileTransport(authorization.map { OriginCredentialTransport(client, url: target, authorization: $0) } ?? client),
                stopwatch: Stopwatch(clock: clock))
            let output = ConsoleOutput(plain: sessionOptions.plain)
            interruption.announce { output.notice($0) }
            let title = StreamTitle.of(target)
            // Media, ad and beacon requests each carry their own headers; telemetry goes as it is.
            let telemetrySettings = telemetryOptions.settings
            let outbox = try SessionOutbox(path: telemetryOptions.outboxPath,
                                           couriers: SessionTelemetry.couriers(for: telemetrySettings, transport: transport,
                                                                               warn: TelemetryOptions.warn),
                                           transport: transport, beaconAttempts: adOptions.beaconAttempts,
                                           beaconTransport: HeaderTransport.adding(requestOptions.headers(for: .beacons), to: transport))
            let telemetry = try await SessionTelemetry(settings: telemetrySettings, clock: clock, output: output,
                                                       outbox: outbox)
            var playlist = target
            var ads: SessionAds?
            if let settings = adOptions.settings(outboxPath: telemetryOptions.outboxPath) {
                let setup = await SessionAds(settings: settings, clock: clock,
                                             transport: HeaderTransport.adding(requestOptions.headers(for: .ads), to: transport),
                                             outbox: outbox)
                playlist = try await setup.start(mediaUrl: target)
                output.message("ad session (\(settings.format.rawValue)): playing \(playlist.absoluteString)")
                ads = setup
            }
            let item = ViewerSession.Item(url: playlist, metadata: ItemMetadata(
                title: title, subtitle: target.absoluteString, source: target.absoluteString), tracksAds: ads != nil)
            var configuration = ViewerSession.Configuration(items: [item], command: "play", startedAt: startedAt)
            configuration.durationLimit = duration.map { .saturating(milliseconds: $0 * 1_000) }
            configuration.engine = engineOptions.choice
            if let maxBandwidth { configuration.variantLimits = VariantLimits(maximumBandwidth: maxBandwidth) }
            configuration.mediaTransport = HeaderTransport.adding(requestOptions.headers(for: .media), to: transport)
            configuration.telemetry = telemetry
            configuration.ads = ads
            configuration.outbox = outbox
            configuration.script = sessionOptions.viewerScript.map { ViewerScriptRunner(script: $0, clock: clock) }
            configuration.accepted = Set(sessionOptions.accept)
            return await SessionRun.run(configuration, clock: clock, transport: transport, output: output,
                                        interruption: interruption, reportPath: sessionOptions.report,
                                        summaryJSONPath: sessionOptions.summaryJSON)
        }
        if let status = interruption.exitStatus { throw ExitCode(status) }
        if !succeeded { throw ExitCode.failure }
    }
}
