public import Foundation
public import PlaytraceAds
import PlaytraceCore
public import PlaytraceNetwork
import PlaytracePlayer

/// A session's ad tracking: the SSAI session (`AdBeaconingSession`), its beacons' outbox, the status fragment and
/// the summary (the terminal counterpart of the seed's pod list).
@MainActor
public final class SessionAds {
    /// Where the ads and their tracking come from.
    public enum AdFormat: String, Sendable {
        case harmonic
        case mediaTailor = "mediatailor"
        /// The manifest's own ad creative signaling (SVTA2053).
        case signaling
        /// No SSAI session: only the interstitials served as VAST.
        case vast
    }

    /// How ads are tracked.
    public struct Settings: Sendable {
        public var format: AdFormat
        /// MediaTailor's `adsParams` (`--ads-param`).
        public var adsParams: [String: String] = [:]
        /// Between two metadata polls (`--ads-interval`).
        public var metadataInterval: Duration = .seconds(4)
        /// Harmonic: ask the server to initialise the session (`--no-init-session` says no).
        public var isInitRequest = true
        /// At the end, the longest spent waiting for queued beacons (`--beacon-wait`).
        public var beaconWait: Duration = .seconds(10)
        /// The outbox file (shared with telemetry): beacons waiting at exit are kept there.
        public var outboxPath: String?
        /// Whether many ad sessions share the run's outbox (a probe's viewers): each gets the reports of its own
        /// beacons, and its end waits for its own beacons rather than for the outbox's. Such sessions are never
        /// resumed, so the outbox does not remember their delivered beacons' keys.
        public var sharesOutbox = false
        /// Whether breaks that a live stream's seekable window left behind, their beacons settled, are folded into
        /// the counts and dropped with their beacons (at each tick of the session): a probe's viewers, whose
        /// memory must not grow with each break. The summary then lists only the breaks still in the window.
        public var retiresPassedBreaks = false

        public init(format: AdFormat, adsParams: [String: String] = [:], metadataInterval: Duration = .seconds(4),
                    isInitRequest: Bool = true, beaconWait: Duration = .seconds(10),
                    outboxPath: String? = nil) {
            self.format = format
            self.adsParams = adsParams
            self.metadataInterval = metadataInterval
            self.isInitRequest = isInitRequest
            self.beaconWait = beaconWait
            self.outboxPath = outboxPath
        }
    }

    public let settings: Settings
    /// The ad session: its pods, beacons and log (the seed's surface).
    public let session: AdBeaconingSession
    /// The run's outbox (``SessionOutbox/outbox`` is the Outbox itself).
    private let run: SessionOutbox
    private let clock: any Clock<Duration>
    /// The key prefix the outbox routes this session's reports by, when it is shared.
    private var routedPrefix: String?
    /// The SSAI session's metadata provider (none for ``AdFormat/vast``).
    private let provider: (any AdMetadataProvider)?
    /// Reads interstitial asset lists served as VAST and tracks their ads (in every format).
    let assetListReader: VASTAssetListReader
    /// How much faster than real time the session's clock runs (the demo's `--speed`): beacons travel in real time,
    /// so their lateness is told in real time.
    private let speed: Double

    /// A beacon is late when its delivery (the response's arrival) comes more than this after its crossing: past
    /// it a vendor counts the ad at a moment the viewer was no longer at.
    static let lateness = Duration.seconds(1)

    /// - Parameters:
    ///   - settings: how ads are tracked.
    ///   - clock: the session's clock.
    ///   - transport: what metadata, VAST and asset list requests go through.
    ///   - run: the run's outbox, whose beacon courier reports to this session from now on.
    public init(settings: Settings, clock: any Clock<Duration>, transport: any HTTPTransport, outbox run: SessionOutbox) async {
        self.settings = settings
        speed = (clock as? ScaledClock)?.speed ?? 1
        self.run = run
        self.clock = clock
        session = AdBeaconingSession(outbox: run.outbox, clock: clock)
        session.metadataUpdateInterval = settings.metadataInterval
        session.isInitRequest = settings.isInitRequest
        session.remembersDeliveredBeacons = !settings.sharesOutbox
        let session = session
        if !settings.sharesOutbox { run.routeBeaconReports { session.courierReport($0) } }
        await run.outbox.start()
        switch settings.format {
        case .harmonic: provider = HarmonicAdProvider(transport: transport, clock: clock)
        case .mediaTailor: provider = MediaTailorAdProvider(transport: transport, adsParams: settings.adsParams, clock: clock)
        case .signaling: provider = ManifestSignalingAdProvider(transport: transport, clock: clock)
        case .vast: provider = nil
        }
        assetListReader = VASTAssetListReader(session: session, transport: transport)
        if settings.sharesOutbox { routeReports() }
    }

    /// Routes the shared outbox's reports of this session's beacons here, by their keys' prefix as it is now.
    private func routeReports() {
        let prefix = session.beaconKeyPrefix
        guard prefix != routedPrefix else { return }
        if let routedPrefix { run.routeBeaconReports(withPrefix: routedPrefix, to: nil) }
        let session = session
        run.routeBeaconReports(withPrefix: prefix) { session.courierReport($0) }
        routedPrefix = prefix
    }

    /// Sets the session up; returns the playlist to play (the URL itself when there is no SSAI session).
    public func start(mediaUrl: URL) async throws -> URL {
        guard let provider else { return mediaUrl }
        let info = await session.start(mediaUrl: mediaUrl, provider: provider)
        // The session's id, now known, is in its beacons' keys.
        if settings.sharesOutbox { routeReports() }
        guard let info else {
            let failures = session.logMessages.filter(\.isError).map(\.message)
            throw PlainFailure("--ads \(settings.format.rawValue) \(mediaUrl.absoluteString)",
                                 "the ad session could not be set up (" + failures.joined(separator: "; ") + ")")
        }
        return info.manifestUrl
    }

    /// The status line's fragment: the break and ad under the playhead.
    var status: String? {
        guard let (pod, ad, index) = session.adAtPlayhead else { return nil }
        return "ad \(pod.id) \(index + 1)/\(pod.ads.count) \(ad.id)"
    }

    /// The beacon figures of the session.
    struct Counts {
        var expected = 0
        var fired = 0
        var playerInitiated = 0
        var delivered = 0
        var failed = 0
        var waiting = 0
        var late = 0
        var missed = 0
        var unexpected = 0
        /// Automatic events fired more than once.
        var duplicated = 0
        /// Beacons an earlier run on the same outbox fired (restored from it), and how many of them were called for.
        var restored = 0
        var firedByEarlierRun = 0
        /// Beacons called for that this run fired.
        var firedCalledFor = 0
        /// VAST error beacons sent.
        var errors = 0
        /// The latest delivery after a crossing, and the latest hand-over to the outbox.
        var worstLateness: Duration = .zero
        var worstFiringLateness: Duration = .zero
        /// URLs not requested: refused by policy (their scheme), and past the limit per event.
        var refusedURLs = 0
        var urlsOverLimit = 0

        /// Adds the figures of other breaks (their beacons and events are distinct from these).
        mutating func add(_ other: Counts) {
            expected += other.expected
            fired += other.fired
            playerInitiated += other.playerInitiated
            delivered += other.delivered
            failed += other.failed
            waiting += other.waiting
            late += other.late
            missed += other.missed
            unexpected += other.unexpected
            duplicated += other.duplicated
            restored += other.restored
            firedByEarlierRun += other.firedByEarlierRun
            firedCalledFor += other.firedCalledFor
            errors += other.errors
            worstLateness = max(worstLateness, other.worstLateness)
            worstFiringLateness = max(worstFiringLateness, other.worstFiringLateness)
            refusedURLs += other.refusedURLs
            urlsOverLimit += other.urlsOverLimit
        }
    }

    private(set) var counts = Counts()
    /// The figures of the breaks retired so far (``retirePassedBreaks(_:)``).
    private var retiredCounts = Counts()
    /// Told the delivery latenesses (real time, one per URL delivered) of the beacons of each break retired, as it is
    /// retired: a probe's distribution has them, which the summary's beacon list no longer does.
    public var onRetiredBeacons: (@MainActor ([Duration]) -> Void)?

    /// Stops the metadata, waits (at most ``Settings/beaconWait``) for the queued beacons, and returns the summary
    /// lines, the verdict's ad part and what fell short (beacons missed, not called for, fired twice, failed for good
    /// or still waiting, VAST error reports).
    /// - Parameter played: what the engine played, for the expected beacons.
    func finish(played snapshot: EngineSnapshot?) async -> (lines: [String], verdict: String,
                                                            findings: [SessionVerdict.Finding]) {
        session.stop()
        await session.beaconsStored()
        let drain: OutboxDrain?
        if settings.sharesOutbox {
            // The outbox delivers other sessions' beacons too: this one waits for its own to settle.
            let stopwatch = Stopwatch(clock: clock)
            while session.unsettledBeaconCount > 0, stopwatch.elapsed < settings.beaconWait {
                do { try await clock.sleep(for: .milliseconds(50)) } catch { break }
            }
            if let routedPrefix { run.routeBeaconReports(withPrefix: routedPrefix, to: nil) }
            drain = nil
        } else {
            drain = await run.outbox.drain(within: settings.beaconWait, only: [BeaconCourier.destination])
        }
        // The couriers' last reports reach the session on the main actor.
        for _ in 0..<10 { await Task.yield() }
        counts = count(played: snapshot)
        counts.add(retiredCounts)
        let waiting = drain.map { $0.pendingByDestination[BeaconCourier.destination] ?? 0 } ?? counts.waiting
        var findings: [SessionVerdict.Finding] = []
        func add(_ kind: SessionVerdict.Shortfall, _ text: String) { findings.append(.init(kind: kind, text: text)) }
        if counts.missed > 0 { add(.missed, "\(counts.missed) of \(counts.expected) beacon(s) missed") }
        if counts.firedByEarlierRun > 0 {
            add(.earlierRun, "\(counts.firedByEarlierRun) of \(counts.expected) beacon(s) called for were fired by an earlier "
                + "run of the same ad session" + (settings.outboxPath.map { " (outbox \($0))" } ?? "") + ", not by this one")
        }
        if session.metadataAttempts > 0, session.metadataFailures >= session.metadataAttempts {
            let played = playedBreaks(snapshot)
            add(.adMetadata, "ad tracking could not work: none of its \(session.metadataAttempts) metadata request(s) "
                + "succeeded" + (played > 0 ? " while \(played) signalled break(s) played" : "")
                + (session.latestError.map { " (latest: \(PlainText.safe($0)))" } ?? ""))
        }
        if counts.unexpected > 0 { add(.unexpected, "\(counts.unexpected) beacon(s) fired that nothing played called for") }
        if counts.duplicated > 0 { add(.duplicated, "\(counts.duplicated) beacon(s) fired more than once") }
        if counts.failed > 0 { add(.failed, "\(counts.failed) beacon(s) failed for good (each listed with its URLs under Ads)") }
        if counts.late > 0 {
            add(.late, "\(counts.late) beacon(s) delivered more than \(Format.seconds(Self.lateness.seconds)) after their "
                + "crossing (worst \(Format.milliseconds(counts.worstLateness)))")
        }
        if waiting > 0 {
            let whereKept = drain?.fileProblem != nil ? " and lost (the outbox file is gone)"
                : settings.outboxPath.map { " (kept in \($0))" } ?? " and lost (no --outbox file)"
            add(.waiting, "\(waiting) beacon URL(s) still waiting at exit" + whereKept
                + Format.retryAfter(drain?.retryAfter.filter { $0.key == BeaconCourier.destination } ?? [:]))
        }
        if counts.errors > 0 { add(.vastErrors, "\(counts.errors) VAST error report(s): ads that could not play") }
        let verdict: String
        if findings.contains(where: { $0.kind == .adMetadata }) {
            verdict = "no metadata, nothing could be tracked"
        } else if counts.expected == 0 && counts.fired == 0 {
            verdict = "no beacon called for"
        } else if findings.isEmpty {
            verdict = "all \(counts.expected) beacon(s) called for fired once and were delivered"
        } else {
            // This run's figures: what an earlier run fired is named apart, never counted here.
            verdict = "\(counts.firedCalledFor) of \(counts.expected) beacon(s) called for fired by this run, "
                + "\(counts.delivered) delivered"
                + (counts.firedByEarlierRun > 0 ? ", \(counts.firedByEarlierRun) fired by an earlier run" : "")
        }
        return (podList() + [countsLine()], verdict, findings)
    }

    /// The figures of the breaks still listed and of the beacons still recorded.
    private func count(played snapshot: EngineSnapshot?) -> Counts {
        var counts = count(session.beacons, of: session.adPods, expected: session.expectedEvents(played: snapshot))
        counts.restored = session.restoredBeaconCount
        return counts
    }

    /// The figures of `records`, fired for `pods`, measured against the events `expected` of them.
    private func count(_ records: [BeaconRecord], of pods: [AdPod], expected: Set<TrackingEventKey>) -> Counts {
        var counts = Counts()
        counts.expected = expected.count
        var firedAutomatic: Set<TrackingEventKey> = []
        for record in records {
            if record.firing.event.kind == .automatic {
                counts.fired += 1
                if !firedAutomatic.insert(record.firing.key).inserted { counts.duplicated += 1 }
            } else if record.firing.cause == .error {
                counts.errors += 1
            } else {
                counts.playerInitiated += 1
            }
            switch record.state {
            case .failed: counts.failed += 1
            case nil: counts.waiting += 1
            default: counts.delivered += 1
            }
            counts.refusedURLs += record.urls.filter { if case .refused = $0.outcome { true } else { false } }.count
            counts.urlsOverLimit += record.urlsOverLimit
            if let lateness = record.deliveryLateness.map(realTime) {
                if lateness > Self.lateness { counts.late += 1 }
                counts.worstLateness = max(counts.worstLateness, lateness)
            }
            counts.worstFiringLateness = max(counts.worstFiringLateness, realTime(record.lateness))
        }
        let restored = Set(pods.flatMap(\.allTrackingEvents).filter { $0.reportingState != .idle }.map(\.id))
            .subtracting(firedAutomatic)
        counts.missed = expected.subtracting(firedAutomatic).subtracting(restored).count
        counts.firedByEarlierRun = expected.intersection(restored).count
        counts.firedCalledFor = expected.intersection(firedAutomatic).count
        counts.unexpected = firedAutomatic.subtracting(expected).count
        return counts
    }

    /// Folds into the counts, and drops, the breaks the live window of `snapshot` (the tracked item's engine) left
    /// behind, their beacons settled (``Settings/retiresPassedBreaks``); their delivery latenesses go to
    /// ``onRetiredBeacons``. Nothing on demand: every break there can be played again.
    func retirePassedBreaks(_ snapshot: EngineSnapshot) {
        guard settings.retiresPassedBreaks, let first = session.adPods.first, let bound = windowStart(snapshot),
              first.endTime < bound else { return }
        let retired = session.retireBreaks(endingBefore: bound)
        guard !retired.isEmpty else { return }
        let beacons = retired.flatMap(\.beacons)
        retiredCounts.add(count(beacons, of: retired.map(\.pod), expected: session.expectedEvents(played: snapshot, in: retired)))
        retiredBeaconURLs += beacons.reduce(0) { $0 + $1.urls.count }
        // One lateness per URL delivered, as the summary's beacon entries have them.
        onRetiredBeacons?(beacons.flatMap { record in
            record.urls.compactMap { url in
                if case .delivered(let at) = url.outcome { realTime(at - record.firing.crossing) } else { nil }
            }
        })
    }

    /// Beacon URLs of the breaks retired: the summary's entries they would have been.
    private(set) var retiredBeaconURLs = 0

    /// Where a live stream's seekable window starts on the ad timeline, a second early (what no seek reaches);
    /// `nil` on demand or when the dates are not known.
    private func windowStart(_ snapshot: EngineSnapshot) -> AdTime? {
        guard snapshot.streamType == .live || snapshot.streamType == .dvr else { return nil }
        let start = AdTime(snapshot.seekableRange.start) - 1_000
        switch session.timeline {
        case .mediaTime: return start
        case .programDateTime:
            guard let date = snapshot.streamDate else { return nil }
            return AdTime(date) - AdTime(snapshot.playhead) + start
        }
    }

    /// The breaks the stream signals whose time the playback played some of; a break signalled twice (a date range
    /// and cue tags) counts once.
    private func playedBreaks(_ snapshot: EngineSnapshot?) -> Int {
        guard let snapshot else { return 0 }
        var played = MediaTimeRangeSet()
        for range in snapshot.adBreaks.compactMap(\.timeRange) where snapshot.playedRanges.overlap(with: range) > .zero {
            played.insert(range)
        }
        return played.ranges.count
    }

    private func countsLine() -> String {
        var line = "  beacons           \(counts.expected) expected, \(counts.fired) fired"
        if counts.playerInitiated > 0 { line += " (+\(counts.playerInitiated) player-initiated)" }
        if counts.restored > 0 { line += " (+\(counts.restored) from an earlier run)" }
        if counts.errors > 0 { line += " (+\(counts.errors) VAST error report(s))" }
        line += ", \(counts.delivered) delivered, \(counts.failed) failed"
        if counts.waiting > 0 { line += ", \(counts.waiting) waiting" }
        // Lateness only of beacons that were sent: nothing sent has no worst.
        if hasBeacons {
            line += ", \(counts.late) late (delivered > \(Format.seconds(Self.lateness.seconds)) after the crossing); worst "
                + "delivery \(Format.milliseconds(counts.worstLateness)), worst firing \(Format.milliseconds(counts.worstFiringLateness))"
        }
        if counts.refusedURLs > 0 { line += "; \(counts.refusedURLs) URL(s) not requested (scheme refused)" }
        if counts.urlsOverLimit > 0 {
            line += "; \(counts.urlsOverLimit) URL(s) past the limit of \(AdMetadataLimits().maximumURLsPerEvent) per event not requested"
        }
        if counts.missed > 0 { line += "; \(counts.missed) MISSED" }
        if counts.unexpected > 0 { line += "; \(counts.unexpected) not called for by what was played" }
        return line
    }

    /// Whether any beacon was fired, retired ones included.
    var hasBeacons: Bool { !session.beacons.isEmpty || session.retiredBeaconCount > 0 }

    /// A duration of the session's clock in real time.
    func realTime(_ duration: Duration) -> Duration { duration / speed }

    /// Each break, ad and event with its state, as ``AdPodList`` lays them out: the terminal counterpart of the
    /// seed's pod list.
    private func podList() -> [String] {
        let info = session.sessionInfo
        var lines = ["Ads (\(settings.format.rawValue)" + (info.map { ", session \($0.id) by \($0.obtainedBy)" } ?? "")
            + ", \(session.metadataAttempts) metadata request(s), \(session.metadataFailures) failed)"]
        if session.retiredBreakCount > 0 {
            lines.append("  \(session.retiredBreakCount) earlier break(s) left the stream's window: in the counts, not listed")
        }
        if let placement = session.producerClockPlacement { lines.append("  ad times placed \(placement)") }
        if session.adPods.isEmpty { lines.append("  no \(session.retiredBreakCount > 0 ? "other " : "")ad break listed") }
        let list = AdPodList(pods: session.adPods, fates: session.fates, time: time)
        // Names are padded to the longest one listed, never cut.
        let nameWidth = max(list.eventNameWidth, 15)
        for row in list.rows {
            let indent = String(repeating: " ", count: 2 + 2 * row.depth)
            switch row.kind {
            case .pod:
                lines.append(indent + "\(row.title)  \(row.time ?? "")  \(Format.seconds(row.durationSeconds ?? 0)), \(row.detail ?? "")")
            case .ad:
                lines.append(indent + "\(row.title)  \(row.time ?? "")  \(Format.seconds(row.durationSeconds ?? 0))"
                    + (row.detail.map { ", " + $0 } ?? ""))
            case .event:
                lines.append(indent + row.title.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + " "
                    + (row.time ?? "(player)").padding(toLength: 24, withPad: " ", startingAt: 0) + " "
                    + (row.state?.rawValue ?? ""))
            case .unusedPlayerEvents, .unfiredEvents, .unreachedPods:
                lines.append(indent + (row.sentence ?? ""))
            }
        }
        if let error = session.latestError { lines.append("  latest error: \(PlainText.safe(error))") }
        return lines
    }

    /// How far the stream's dates run ahead of its media time (seconds: a date minus its playhead), as the playback
    /// last showed it; ``ViewerSession`` keeps it, so that the breaks' times are told on the status line's timeline.
    var dateOffset: Double?

    /// A time of the ad timeline on the item's media timeline (seconds), when it can be placed there.
    func mediaSeconds(_ time: AdTime) -> Double? {
        switch session.timeline {
        case .mediaTime: time.seconds
        case .programDateTime: dateOffset.map { time.seconds - $0 }
        }
    }

    /// A time of the ad timeline as the status line tells it (a media timecode); a stream date's time of day (UTC)
    /// when the playback never showed where the dates fall.
    func time(_ time: AdTime) -> String {
        if let seconds = mediaSeconds(time) { return MediaTime(seconds: seconds).timecode }
        return Format.timeOfDay(millisecondsSince1970: time.milliseconds)
    }
}

