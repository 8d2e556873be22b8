public import ArgumentParser
import Foundation
import PlaytraceAds
import PlaytraceCore
import PlaytraceNetwork
import PlaytracePlayer
import PlaytraceSession

struct ProbeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Load a stream with many simulated viewers, each a whole Player with its trackers, and say what they "
            + "went through: startup, stalls, variants, requests, ad beacons.",
        discussion: """
            Every viewer is the session `play` runs: the Player on the headless engine, its telemetry tracker (events \
            tagged by viewer) and, with --ads, its own SSAI session and beacons. The viewers start evenly over --ramp, \
            play together for --duration, then end as a session's normal end does. One process shares one HTTP \
            client, one outbox and one telemetry pipeline, and its viewers' sleeps share one timer.

            The population is seeded (--seed): viewer identities and script shifts (--spread) are the same on every \
            machine, so that --shard I/N runs viewers I, I+N, I+2N… of it and N processes are one probe.

            At the end: the aggregate (startup percentiles, stalls per viewer-hour, rebuffering ratio, variants, \
            requests by kind and outcome, beacons and their delivery lateness), the ten worst viewers, and a verdict: \
            it fails when viewers fell short (failed, stalled, missed or duplicated beacons…, as play's verdict \
            names them) or when the startup or lateness p99 is over its bound; --accept KIND lets one pass, still \
            named. The exit status follows it; a URL that does not answer with a playlist exits 2 before the ramp.

            Ctrl-C, SIGTERM or SIGHUP stops the ramp and ends every viewer as its normal end does (beacons and \
            telemetry flushed within their bounds), writes the summary and report, and exits 130 or 143; a second \
            signal quits at once, writing what is known (the summary and report, marked incomplete).

            Log lines are errors only: each viewer's warnings are counted in the aggregate (--verbose shows them).
            """)

    @OptionGroup var common: CommonOptions
    @OptionGroup var telemetryOptions: TelemetryOptions
    @OptionGroup var adOptions: AdOptions
    @OptionGroup(title: "Requests") var requestOptions: RequestOptions

    @Argument(help: "The multivariant or media playlist's http(s) URL (with --ads, the SSAI session URL).")
    var url: String

    @Option(help: "How many viewers: the whole population, every shard's together.")
    var viewers: Int = 1

    @Option(help: "Over how many seconds the viewers start, evenly spaced.")
    var ramp: Double = 0

    @Option(help: "How many seconds the viewers play together once the ramp is over.")
    var duration: Double = 60

    @Option(help: "The population's seed (viewer identities, script shifts): the same seed, the same viewers.")
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("This process's part of the population: I/N runs viewers I, I+N, I+2N… (I from 0).",
                               discussion: "A Kubernetes Indexed Job's completion index is I; docs/PROBE.md shows one."))
    var shard: String = "0/1"

    @Option(help: ArgumentHelp(
        "A scripted viewer, as play takes it: every viewer runs it, its actions shifted by up to --spread seconds.",
        discussion: "at T pause D | at T seek S | at T mute | at T unmute | at T rate R | at T skip | at T stop"))
    var script: String?

    @Option(help: "The most each viewer's scripted actions are shifted (seconds; seeded), so that viewers do not act in lockstep.")
    var spread: Double = 0

    @Option(help: "Cap the variants by peak bandwidth, bits per second.")
    var maxBandwidth: Int?

    @Option(name: .customLong("startup-p99"), help: "The bound of the startup time's 99th percentile, seconds.")
    var startupP99: Double = 4

    @Option(name: .customLong("lateness-p99"), help: "The bound of the beacon delivery lateness' 99th percentile, milliseconds.")
    var latenessP99: Double = 1_000

    @Option(name: .customLong("summary-json"),
            help: ArgumentHelp("Write the probe's record for machines to this file (JSON).",
                               discussion: "schemas/probe-summary.schema.json describes it; the worst viewers carry their "
                                   + "own session summaries."))
    var summaryJSON: String?

    @Option(help: ArgumentHelp(
        "Write the probe's report to this HTML file: the aggregate, and the worst viewers each with its session's report.",
        discussion: "One self-contained file; playtrace report draws the same from a --summary-json file."))
    var report: String?

    @Option(help: ArgumentHelp(
        "A shortfall that does not fail the probe (repeatable): the verdict still names it.",
        discussion: ProbeVerdict.Shortfall.allCases.map(\.rawValue).joined(separator: " | ")))
    var accept: [ProbeVerdict.Shortfall] = []

    @Option(name: .customLong("metrics-port"), help: ArgumentHelp(
        "Serve the probe's metrics for Prometheus at http://HOST:PORT/metrics (0 picks a free port).",
        discussion: "Counters and histograms of the aggregate, every series labelled shard=\"I\"; docs/PROBE.md has the "
            + "scrape configuration and the PromQL that sums the shards."))
    var metricsPort: Int?

    @Option(name: .customLong("metrics-host"), help: "The address --metrics-port listens on.")
    var metricsHost = "0.0.0.0"

    @Option(name: .customLong("metrics-linger"), help: ArgumentHelp(
        "After the end, keep serving the metrics until a scrape has read the final figures, at most this many seconds.",
        discussion: "Set it above the scrape interval; 0 ends at once."))
    var metricsLinger: Double = 30

    @Flag(help: "Status lines every 5 s even on a terminal, instead of the live panel.")
    var plain = false

    /// `--shard`, read (validated already).
    var shardValue: ProbePopulation.Shard { ProbePopulation.Shard(parsing: shard) ?? .whole }

    func validate() throws {
        guard let target = URL(string: url), ["http", "https"].contains(target.scheme?.lowercased() ?? ""),
              target.host?.isEmpty == false else {
            throw ValidationError(PlainText.safe("\(url) is not an http(s) URL"))
        }
        if let port = target.port, !(1...65_535).contains(port) {
            throw ValidationError(PlainText.safe("\(url): the port \(port) is out of range (1-65535)"))
        }
        guard (1...10_000_000).contains(viewers) else { throw ValidationError("--viewers must be between 1 and 10000000") }
        guard ramp >= 0, ramp <= 1e7 else { throw ValidationError("--ramp must be a number of seconds from 0") }
        guard duration > 0, duration <= 1e7 else { throw ValidationError("--duration must be a positive number of seconds") }
        guard spread >= 0, spread <= 1e6 else { throw ValidationError("--spread must be a number of seconds from 0") }
        guard ProbePopulation.Shard(parsing: shard) != nil else {
            throw ValidationError(PlainText.safe("--shard \(shard): expected I/N with I from 0 to N-1 (0/4, 3/4)"))
        }
        if let maxBandwidth, maxBandwidth <= 0 {
            throw ValidationError("--max-bandwidth must be a positive number of bits per second")
        }
        guard startupP99 > 0, startupP99 <= 3_600 else { throw ValidationError("--startup-p99 must be between 0 and 3600 seconds") }
        guard latenessP99 > 0, latenessP99 <= 3_600_000 else {
            throw ValidationError("--lateness-p99 must be between 0 and 3600000 milliseconds")
        }
        if let metricsPort, !(0...65_535).contains(metricsPort) {
            throw ValidationError("--metrics-port must be between 0 and 65535")
        }
        guard metricsLinger >= 0, metricsLinger <= 86_400 else {
            throw ValidationError("--metrics-linger must be between 0 and 86400 seconds")
        }
        try SessionOptions.check(script: script)
        if let summaryJSON { try WritablePath.check(summaryJSON, option: "--summary-json", appending: false) }
        if let report { try WritablePath.check(report, option: "--report", appending: false) }
    }

    @MainActor
    func run() async throws {
        // Errors only: each viewer's warnings (a retried request, a variant taking over) are counted in the aggregate,
        // and thousands of viewers would bury the terminal under them. --verbose shows them all.
        common.bootstrapLogging(from: .error)
        guard let given = URL(string: url) else { throw ValidationError(PlainText.safe("\(url) is not a URL")) }
        let (target, authorization) = URLRedaction.splitCredentials(given)
        let population = ProbePopulation(size: viewers, seed: seed, ramp: .saturating(milliseconds: ramp * 1_000),
                                         spread: MediaTime(seconds: spread), shard: shardValue)
        let startedAt = ISO8601.now()
        let interruption = SessionInterruption()
        defer { interruption.stop() }
        // The viewers' sleeps share one timer: thousands of engines ticking cost one wake-up per 10 ms.
        let clock = CoalescedClock(granularity: .milliseconds(10))
        let output = ConsoleOutput(plain: plain)
        interruption.announce { output.notice($0) }
        do {
            try ProbePreflight.checkDescriptors(viewers: population.shardSize)
        } catch {
            throw Self.preflightFailed(error)
        }
        let metrics = metricsPort.map { _ in ProbeMetrics(shard: population.shard) }
        let endpoint = metrics.map(MetricsEndpoint.init(metrics:))
        if let endpoint, let metricsPort {
            do {
                let port = try await endpoint.start(host: metricsHost, port: metricsPort)
                output.message("probe: metrics at http://\(PlainText.safe(metricsHost)):\(port)/metrics")
            } catch {
                StandardStreams.writeError(PlainText.safe("Error: \(error)") + "\n")
                throw ExitCode(2)
            }
        }
        let connections = ProbePreflight.connectionsPerHost(viewers: population.shardSize)
        let result = try await AsyncHTTPClientTransport.scoped(clock: clock, connectionsPerHost: connections) { client in
            let base: any HTTPTransport = authorization.map { OriginCredentialTransport(client, url: target, authorization: $0) } ?? client
            do {
                try await ProbePreflight.checkStream(target, ads: adOptions.ads != nil, transport: base)
            } catch let failure as ProbePreflight.Failure {
                throw Self.preflightFailed(failure)
            }
            let requests = ProbeRequestCounter()
            let telemetrySettings = {
                var settings = telemetryOptions.settings
                settings.keepsSessionMetrics = false
                settings.isSharedByViewers = true
                return settings
            }()
            let telemetryTransport = requests.counting(base, as: .telemetry)
            let outbox = try SessionOutbox(
                path: telemetryOptions.outboxPath,
                couriers: SessionTelemetry.couriers(for: telemetrySettings, transport: telemetryTransport, warn: TelemetryOptions.warn),
                transport: telemetryTransport, beaconAttempts: adOptions.beaconAttempts,
                beaconTransport: requests.counting(HeaderTransport.adding(requestOptions.headers(for: .beacons), to: base), as: .beacon),
                beaconConcurrency: .viewers(population.shardSize))
            let telemetry = try await SessionTelemetry(settings: telemetrySettings, clock: clock, output: output, outbox: outbox)
            var configuration = Probe.Configuration(url: target, population: population,
                                                    duration: .saturating(milliseconds: duration * 1_000),
                                                    outbox: outbox, requests: requests)
            configuration.ads = adOptions.settings(outboxPath: telemetryOptions.outboxPath)
            configuration.telemetry = telemetry
            configuration.script = script.flatMap { try? ViewerScript(parsing: $0) }
            if let maxBandwidth { configuration.variantLimits = VariantLimits(maximumBandwidth: maxBandwidth) }
            let mediaHeaders = requestOptions.headers(for: .media), adHeaders = requestOptions.headers(for: .ads)
            configuration.mediaTransport = { HeaderTransport.adding(mediaHeaders, to: $0) }
            configuration.adTransport = { HeaderTransport.adding(adHeaders, to: $0) }
            configuration.bounds = ProbeVerdict.Bounds(startupP99: .saturating(milliseconds: startupP99 * 1_000),
                                                       latenessP99: .saturating(milliseconds: latenessP99))
            configuration.accepted = Set(accept)
            configuration.isInterrupted = { interruption.signal != nil }
            configuration.metrics = metrics
            // On a terminal the panel, every second; elsewhere a status line every 5 s. What is known, for a second
            // signal to write before quitting at once.
            var lastStatus: Duration?
            let (bounds, accepted) = (configuration.bounds, configuration.accepted)
            configuration.progress = { progress in
                guard !progress.isEnded else { return output.endStatus() }
                if summaryJSON != nil || report != nil {
                    let known = ProbeSummary(progress.interimResult(bounds: bounds, accepted: accepted), url: target,
                                             population: population, duration: .saturating(milliseconds: duration * 1_000),
                                             startedAt: startedAt, complete: false)
                    interruption.lastWords { Self.writeKnown(known, summaryJSON: summaryJSON, report: report) }
                }
                if output.isTerminal { return output.panel(ProbePanel.lines(progress)) }
                if output.isTerminal { return output.panel(ProbePanel.lines(progress)) }
                guard lastStatus.map({ progress.elapsed - $0 >= .seconds(5) }) ?? true else { return }
                lastStatus = progress.elapsed
                output.message(ProbeStatus.line(progress))
            }
            output.message("probe: \(population.shardSize) viewer(s) of \(PlainText.safe(URLRedaction.redacting(target.absoluteString)))"
                + (population.shard.count > 1 ? " (shard \(population.shard) of \(population.size))" : ""))
            let probe = Probe(configuration: configuration, clock: clock, transport: base)
            let result = await probe.run()
            for line in result.deliveryLines { output.message(line) }
            return result
        }
        let summary = ProbeSummary(result, url: target, population: population,
                                   duration: .saturating(milliseconds: duration * 1_000), startedAt: startedAt,
                                   complete: interruption.signal == nil)
        var verdict = result.verdict
        for line in summary.lines { output.message(line) }
        let files = Self.write(summary, summaryJSON: summaryJSON, report: report)
        for failure in files.failures {
            output.message(failure.line)
            verdict.findings.append(ProbeVerdict.Finding(kind: failure.kind, text: "\(failure.option) could not be written"))
        }
        if let reportPath = report, files.written.contains(reportPath) { output.message("report: \(PlainText.safe(reportPath))") }
        output.message(verdict.line(result.aggregate))
        if let endpoint {
            endpoint.markFinal()
            if metricsLinger > 0 {
                let limit = String(format: "%g s", metricsLinger)
                output.message("probe: serving the final metrics until they are scraped (at most \(limit))")
                let scraped = await endpoint.waitForFinalScrape(atMost: .saturating(seconds: metricsLinger), clock: ContinuousClock())
                output.message(scraped ? "probe: the final metrics were scraped" : "probe: no scrape read the final metrics within \(limit)")
            }
            await endpoint.stop()
        }
        if let status = interruption.exitStatus { throw ExitCode(status) }
        if !verdict.succeeded { throw ExitCode.failure }
    }
}

extension ProbeCommand {
    /// Writes what is known of the probe (a second signal quits at once): the summary and the report, each whole or
    /// not at all; one line on standard error says where.
    static func writeKnown(_ known: ProbeSummary, summaryJSON: String?, report: String?) {
        let files = write(known, summaryJSON: summaryJSON, report: report)
        for failure in files.failures { StandardStreams.writeError(failure.line + "\n") }
        if !files.written.isEmpty {
            StandardStreams.writeError(PlainText.safe("quit at once: what was known is in " + files.written.joined(separator: " and ")) + "\n")
        }
    }

    /// A file the probe could not write: its option, the verdict's kind for it, and the line that says why.
    struct FileFailure {
        let option: String
        let kind: ProbeVerdict.Shortfall
        let line: String
    }

    /// Writes the summary (`--summary-json`) and the report (`--report`) that were asked for, each whole or not at
    /// all; returns the paths written and what failed.
    static func write(_ summary: ProbeSummary, summaryJSON: String?,
                      report: String?) -> (written: [String], failures: [FileFailure]) {
        var written: [String] = []
        var failures: [FileFailure] = []
        let files: [(option: String, kind: ProbeVerdict.Shortfall, path: String?, content: () throws -> Data)] = [
            ("--summary-json", .summaryFile, summaryJSON, { try summary.encoded() }),
            ("--report", .reportFile, report, { Data(ProbeReport(summary).document.utf8) }),
        ]
        for file in files {
            guard let path = file.path else { continue }
            do {
                try AtomicFile.write(try file.content(), to: path)
                written.append(path)
            } catch {
                failures.append(FileFailure(option: file.option, kind: file.kind,
                                            line: PlainFailure("\(file.option) \(path)", error: error).description))
            }
        }
        return (written, failures)
    }

    /// Says why the probe cannot start, on one line, and exits 2.
    static func preflightFailed(_ failure: ProbePreflight.Failure) -> ExitCode {
        StandardStreams.writeError("Error: " + failure.description + "\n")
        return ExitCode(2)
    }
}

extension ProbeVerdict.Shortfall: ExpressibleByArgument {}
