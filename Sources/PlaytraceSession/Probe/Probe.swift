public import Foundation
import PlaytraceCore
public import PlaytraceHeadless
public import PlaytraceNetwork
public import PlaytracePlayer

/// Many viewers at once: each a whole ``ViewerSession`` (the Player on the headless engine, with its trackers,
/// telemetry and its own ad session), started over the ramp, played together for the duration, then ended as a
/// session's normal end does. What they did is folded into one ``ProbeAggregate`` as each ends; no viewer's record
/// is kept beyond that, but for the worst few.
///
/// The viewers share what a process can share: one HTTP client, one outbox (telemetry batches and every viewer's
/// beacons), one telemetry pipeline, and the clock the caller gives (PlaytraceCore's `CoalescedClock`: one timer for all).
@MainActor
public final class Probe {
    /// What a probe runs.
    public struct Configuration {
        /// The stream (with ``ads``, the SSAI session URL each viewer sets its session up from).
        public var url: URL
        /// The viewers (this shard's part of the population).
        public var population: ProbePopulation
        /// How long the viewers play together once the ramp is over; the probe then ends them all.
        public var duration: Duration
        /// Each viewer's ad tracking (its own SSAI session), over the shared ``outbox``.
        public var ads: SessionAds.Settings?
        /// The telemetry every viewer's events go to, tagged by viewer (its `sessionId`).
        public var telemetry: SessionTelemetry?
        /// The one outbox of the run: telemetry batches and every viewer's beacons.
        public var outbox: SessionOutbox
        /// What every viewer counts its requests into (the outbox's beacon and telemetry transports count into it too).
        public var requests: ProbeRequestCounter
        /// What each viewer does, its actions shifted by its ``ProbePopulation/Viewer/scriptShift``.
        public var script: ViewerScript?
        public var variantLimits = VariantLimits.none
        /// Media and ad requests as each viewer sends them: its own transport (which records them) with the headers
        /// they carry added.
        public var mediaTransport: @Sendable (any HTTPTransport) -> any HTTPTransport = { $0 }
        public var adTransport: @Sendable (any HTTPTransport) -> any HTTPTransport = { $0 }
        /// The headless engine's settings.
        public var headless = HeadlessEngine.Configuration()
        /// How often each viewer's session looks at its player (its timeline's samples, its limits).
        public var sessionTick: Duration = .seconds(1)
        /// What each viewer keeps of its timeline and requests (for the worst viewers' summaries).
        public var recordLimits = SessionRecordLimits.probeViewer
        /// The bounds of the verdict's percentiles, and the shortfalls that do not fail it.
        public var bounds = ProbeVerdict.Bounds()
        public var accepted: Set<ProbeVerdict.Shortfall> = []
        /// How many of the worst viewers keep their whole session summary for the report.
        public var worstKept = 10
        /// Asked every 250 ms: when it says yes, the ramp stops and every viewer ends as its normal end does.
        public var isInterrupted: @Sendable () -> Bool = { false }
        /// Given the aggregate as known now, every second (a live view), and once more when the probe has ended.
        public var progress: (@MainActor (ProbeProgress) -> Void)?
        /// Brought up to date every second and once more at the end (`--metrics-port`).
        public var metrics: ProbeMetrics?

        public init(url: URL, population: ProbePopulation, duration: Duration, outbox: SessionOutbox,
                    requests: ProbeRequestCounter) {
            self.url = url
            self.population = population
            self.duration = duration
            self.outbox = outbox
            self.requests = requests
        }
    }

    private let configuration: Configuration
    private let clock: any Clock<Duration>
    private let transport: any HTTPTransport
    /// What the viewers did so far.
    public private(set) var aggregate = ProbeAggregate()
    /// The sessions playing now, by viewer place.
    private var active: [Int: ViewerSession] = [:]
    private var ending = false
    private let stopwatch: Stopwatch

    /// - Parameters:
    ///   - configuration: the viewers and how long they play.
    ///   - clock: the probe's clock (the viewers' too).
    ///   - transport: the one HTTP client every viewer's requests go through.
    public init(configuration: Configuration, clock: any Clock<Duration>, transport: any HTTPTransport) {
        self.configuration = configuration
        self.clock = clock
        self.transport = transport
        stopwatch = Stopwatch(clock: clock)
    }

    /// Starts the viewers over the ramp, lets them play for the duration, ends them (each delivering its beacons within
    /// its bound), then ends the shared telemetry and outbox (delivering what is left within the telemetry's drain
    /// bound), and returns what they did and the verdict.
    public func run() async -> ProbeResult {
        let population = configuration.population
        aggregate.planned = population.shardSize
        var viewers: [Task<Void, Never>] = []
        var lastProgress = Duration.zero
        for viewer in population.viewers {
            while stopwatch.elapsed < viewer.startOffset, !shouldEnd() {
                let wait = min(viewer.startOffset - stopwatch.elapsed, .milliseconds(250))
                do { try await clock.sleep(for: wait) } catch { break }
                reportProgress(&lastProgress)
            }
            if shouldEnd() { break }
            aggregate.started += 1
            viewers.append(Task { await self.play(viewer) })
        }
        while !shouldEnd(), aggregate.active > 0 {
            do { try await clock.sleep(for: .milliseconds(250)) } catch { break }
            reportProgress(&lastProgress)
        }
        endAll()
        // The viewers end as their normal end does (beacons delivered within their bound): the progress goes on.
        while aggregate.active > 0 {
            do { try await clock.sleep(for: .milliseconds(250)) } catch { break }
            reportProgress(&lastProgress)
        }
        for viewer in viewers { await viewer.value }
        let elapsed = stopwatch.elapsed
        var verdict = ProbeVerdict.judge(aggregate, bounds: configuration.bounds, accepted: configuration.accepted)
        verdict.interrupted = configuration.isInterrupted()
        // The shared delivery ends once, after every viewer.
        var lines: [String] = []
        if let telemetry = configuration.telemetry {
            lines += await telemetry.finish()
            for problem in telemetry.problems {
                verdict.findings.append(.init(kind: .telemetry, text: "telemetry: " + problem))
            }
        }
        let (outboxLines, findings) = await configuration.outbox.finish()
        lines += outboxLines
        for finding in findings {
            verdict.findings.append(.init(kind: ProbeVerdict.Shortfall(finding.kind), text: finding.text))
        }
        // The last progress, once delivery has ended: its figures are the result's.
        let result = ProbeResult(aggregate: aggregate, requests: configuration.requests.snapshot, verdict: verdict,
                                 elapsed: elapsed, deliveryLines: lines)
        reportProgress(&lastProgress, final: result)
        return result
    }

    private func reportProgress(_ last: inout Duration, final: ProbeResult? = nil) {
        guard configuration.progress != nil || configuration.metrics != nil else { return }
        let now = stopwatch.elapsed
        guard final != nil || now - last >= .seconds(1) else { return }
        last = now
        let progress = ProbeProgress(aggregate: aggregate, requests: final?.requests ?? configuration.requests.snapshot,
                                     elapsed: final?.elapsed ?? now, ramp: configuration.population.ramp,
                                     duration: configuration.duration, isEnding: ending, isEnded: final != nil)
        configuration.metrics?.update(progress)
        configuration.progress?(progress)
    }

    private func shouldEnd() -> Bool {
        if ending { return true }
        if configuration.isInterrupted() || stopwatch.elapsed >= configuration.population.ramp + configuration.duration {
            endAll()
        }
        return ending
    }

    private func endAll() {
        guard !ending else { return }
        ending = true
        let reason = configuration.isInterrupted() ? "the probe was interrupted" : "the probe's end"
        for session in active.values { session.stop(reason) }
    }

    /// One viewer, from its set-up to its end, folded into the aggregate.
    private func play(_ viewer: ProbePopulation.Viewer) async {
        guard let session = await prepare(viewer) else { return }
        active[viewer.index] = session
        if ending { session.stop("the probe's end") }
        let result = await session.run()
        active[viewer.index] = nil
        fold(result, of: viewer)
    }

    /// A viewer's session, once its ad session is set up; nil when that failed (counted). The set-up (an SSAI
    /// session's request, through the HTTP client) runs in a task of its own: a task keeps the deepest stack it ever
    /// had until it ends, and the viewer's lives as long as the viewer (12 KB a viewer with Harmonic ads, measured).
    private func prepare(_ viewer: ProbePopulation.Viewer) async -> ViewerSession? {
        let recording = RecordingTransport(transport, stopwatch: Stopwatch(clock: clock), limits: configuration.recordLimits)
        let clock = self.clock
        do {
            return try await Task { @MainActor in
                let sessionConfiguration = try await self.session(for: viewer, recording: recording)
                return ViewerSession(configuration: sessionConfiguration, clock: clock, transport: recording)
            }.value
        } catch {
            aggregate.addFailedSetUp(viewer, reason: PlainText.describe(error), keepingWorst: configuration.worstKept)
            return nil
        }
    }

    @inline(never)
    private func fold(_ result: SessionResult, of viewer: ProbePopulation.Viewer) {
        let lateness = aggregate.add(result, of: viewer, keepingWorst: configuration.worstKept)
        configuration.metrics?.record(lateness: lateness)
    }

    /// The delivery latenesses of a viewer's beacons whose break it retired (folded as it went, not in its summary).
    private func recordLateness(_ lateness: [Duration]) {
        for value in lateness { aggregate.lateness.record(value) }
        configuration.metrics?.record(lateness: lateness)
    }

    private func viewerShowedFirstFrame(_ startup: Duration) {
        aggregate.addStartup(startup)
        configuration.metrics?.record(startup: startup)
    }

    /// A viewer's session: its ad session set up (the playlist it gives), its item, its shifted script.
    private func session(for viewer: ProbePopulation.Viewer,
                         recording: RecordingTransport) async throws -> ViewerSession.Configuration {
        let counter = configuration.requests
        let media = counter.counting(configuration.mediaTransport(recording), as: nil)
        var playlist = configuration.url
        var ads: SessionAds?
        if var settings = configuration.ads {
            settings.sharesOutbox = true
            settings.retiresPassedBreaks = true
            let setup = await SessionAds(settings: settings, clock: clock,
                                         transport: counter.counting(configuration.adTransport(recording), as: .metadata),
                                         outbox: configuration.outbox)
            setup.onRetiredBeacons = { [weak self] lateness in self?.recordLateness(lateness) }
            playlist = try await setup.start(mediaUrl: configuration.url)
            ads = setup
        }
        let title = configuration.url.lastPathComponent
        let item = ViewerSession.Item(url: playlist, metadata: ItemMetadata(
            title: title, subtitle: configuration.url.absoluteString, source: configuration.url.absoluteString),
            tracksAds: ads != nil)
        var session = ViewerSession.Configuration(items: [item], command: "probe")
        session.viewerID = viewer.id
        session.finishesDelivery = false
        session.tick = configuration.sessionTick
        session.recordLimits = configuration.recordLimits
        session.headless = configuration.headless
        session.variantLimits = configuration.variantLimits
        session.mediaTransport = media
        session.telemetry = configuration.telemetry
        session.ads = ads
        session.outbox = configuration.outbox
        session.onFirstFrame = { [weak self] startup in self?.viewerShowedFirstFrame(startup) }
        if let script = configuration.script {
            session.script = ViewerScriptRunner(script: script.shifted(by: viewer.scriptShift.seconds), clock: clock)
        }
        return session
    }
}

/// What a probe did: the aggregate of its viewers, its requests, its verdict.
public struct ProbeResult: Sendable {
    public var aggregate: ProbeAggregate
    public var requests: [ProbeRequestCounter.Kind: ProbeRequestCounter.Counts]
    public var verdict: ProbeVerdict
    /// How long the probe ran, on its clock.
    public var elapsed: Duration
    /// What the shared telemetry and outbox said at the end (batches delivered, waiting, lost).
    public var deliveryLines: [String] = []
}

extension ProbeProgress {
    /// What is known now as a result, judged as the end would judge it and marked interrupted: what a second Ctrl-C
    /// writes before quitting at once.
    public func interimResult(bounds: ProbeVerdict.Bounds, accepted: Set<ProbeVerdict.Shortfall>) -> ProbeResult {
        var verdict = ProbeVerdict.judge(aggregate, bounds: bounds, accepted: accepted)
        verdict.interrupted = true
        return ProbeResult(aggregate: aggregate, requests: requests, verdict: verdict, elapsed: elapsed)
    }
}

/// The probe as known at a moment: for a live view and for metrics.
public struct ProbeProgress: Sendable {
    public var aggregate: ProbeAggregate
    public var requests: [ProbeRequestCounter.Kind: ProbeRequestCounter.Counts]
    /// Since the probe started, on its clock.
    public var elapsed: Duration
    public var ramp: Duration
    public var duration: Duration
    /// Whether the viewers are being ended.
    public var isEnding: Bool
    /// Whether the probe has ended, its delivery too: the figures are final.
    public var isEnded = false
}
