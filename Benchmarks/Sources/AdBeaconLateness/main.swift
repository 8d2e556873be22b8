// Ad beacon lateness over many simulated viewing sessions: Playtrace's ad tracker against a re-implementation of
// Harmonic's firing rule, both watching the same sessions at once.
//
//   AdBeaconLateness [SESSIONS]   (default 12)
//
// Each session plays a 5-minute on-demand stream from the lab through the Player and the real headless engine, on a
// test clock: five ad breaks of two or three ads (odd durations, so that no event falls on a 100 ms tick), and a
// seeded random viewer (a ViewerScript) that pauses, seeks forward and back; some segments arrive late (the lab
// delays them: the engine stalls); in a third of the sessions the metadata arrives 20 to 90 s late.
//
// - Playtrace: AdBeaconingSession with its AdTracker (crossings from the engine's progress reports, progress
//   boundaries at the events' times, catch-up of late metadata). A beacon's time is when it is handed to the outbox.
// - The Harmonic rule (REFERENCE §3): a 0.5 s timer reads the playhead; when the speed measured since the last tick
//   is in (0, 2.5], every idle event whose window [start − 500 ms, start + max(duration, 1000 ms)] holds the playhead
//   fires; after each metadata poll (every 4 s, from its arrival), idle events inside the ranges it recorded as
//   played (at speeds 0.95–1.05) fire. A beacon's time is the tick that fires it.
//
// The yardstick is the same for both and belongs to neither: the engine's own played ranges say which events the
// media called for (BeaconAudit), and each event's true crossing instant is interpolated from the engine's progress
// reports by a separate observer. Lateness = beacon time − true crossing (negative: fired before the media got there,
// which the reference's window does). A miss: an event the media called for and never fired; extra: fired for media
// never played; duplicate: fired twice.
// Time is virtual: the figures measure the rules, not this machine.
import Clocks
import Foundation
import Logging
import PlaytraceAds
import PlaytraceCore
import PlaytraceHeadless
import PlaytraceLab
import PlaytraceNetwork
import PlaytracePlayer

/// A small deterministic generator (SplitMix64), so that every run plays the same sessions.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// One session's plan: its breaks, its viewer, its late segments and when its metadata arrives.
struct SessionPlan {
    var pods: [AdPod]
    var script: String
    var lateSegments: [Int]
    var metadataDelay: Double

    static let contentSeconds = 300.0

    init(seed: UInt64) {
        var random = SeededRandom(state: seed)
        var pods: [AdPod] = []
        for index in 0..<5 {
            // A pre-roll in some sessions; the others every minute or so.
            let start = index == 0 && seed % 3 == 0 ? 0 : Double(index) * 60_000 + Double.random(in: 20_000...40_000, using: &random)
            var ads: [Ad] = []
            var at = start.rounded()
            for adIndex in 0..<Int.random(in: 2...3, using: &random) {
                let duration = Double(Int.random(in: 5_000...15_000, using: &random)) + 37
                let id = "ad-\(adIndex + 1)"
                var events: [TrackingEvent] = []
                for (type, fraction) in [(TrackingEventType.impression, 0.0), (.start, 0), (.firstQuartile, 0.25),
                                         (.midpoint, 0.5), (.thirdQuartile, 0.75), (.complete, 1)] {
                    let time = (at + fraction * duration).rounded()
                    events.append(TrackingEvent(id: TrackingEventKey(podID: "p\(index)", adID: id, event: type, time: Int64(time)),
                                                event: type, startTime: AdTime(milliseconds: time),
                                                duration: AdTime(milliseconds: type == .impression ? duration : 0),
                                                signalingUrls: ["http://127.0.0.1:9/p\(index)/\(id)/\(type.rawValue)"]))
                }
                ads.append(Ad(id: id, startTime: AdTime(milliseconds: at), duration: AdTime(milliseconds: duration),
                              trackingEvents: events))
                at += duration
            }
            pods.append(AdPod(id: "p\(index)", startTime: AdTime(milliseconds: start.rounded()),
                              duration: AdTime(milliseconds: at - start.rounded()), ads: ads, trackingEvents: []))
        }
        self.pods = pods
        // The viewer: a few pauses and seeks at random moments, in order.
        var actions: [(Double, String)] = []
        var time = Double.random(in: 5...20, using: &random)
        while time < Self.contentSeconds - 30 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4: actions.append((time, "pause \(String(format: "%.2f", Double.random(in: 0.5...6, using: &random)))"))
            case 4..<6:
                let target = min(Self.contentSeconds - 20, time + Double.random(in: 5...50, using: &random))
                actions.append((time, "seek \(String(format: "%.2f", target))"))
                time = target
            case 6..<8:
                let target = max(0, time - Double.random(in: 3...30, using: &random))
                actions.append((time, "seek \(String(format: "%.2f", target))"))
                // The next action waits for the playhead to come back past this one.
            default: break
            }
            time += Double.random(in: 8...40, using: &random)
        }
        script = actions.map { "at \(String(format: "%.2f", $0.0)) \($0.1)" }.joined(separator: "; ")
        lateSegments = (0..<3).map { _ in Int.random(in: 2..<Int(Self.contentSeconds / 4), using: &random) }
        metadataDelay = seed % 3 == 1 ? Double.random(in: 20...90, using: &random) : 0
    }
}

/// Records, independently of both rules, when the playhead truly crossed each event's time (interpolated from the
/// engine's progress reports, as the engine moves the playhead linearly between them) or entered its ad. Breaks
/// dated where an interstitial is (within 500 ms) are the interstitial's: only its own progress reaches them, at its
/// date plus the interstitial time; the primary's progress reaches the others.
final class CrossingRecorder: PlayerItemTracker {
    @MainActor
    final class Log {
        var crossings: [TrackingEventKey: Duration] = [:]
        var pods: [AdPod] = []
        var stopwatch: Stopwatch!
        /// The ad timeline: media time, or the stream's dates.
        var timeline: AdTimeline = .mediaTime
        /// The interstitial each break belongs to, by break ID (from the schedule the engine reports).
        var scopes: [String: String] = [:]
    }
    private let log: Log
    init(configuration: Log) { log = configuration }
    func enable(for player: Player) {}
    func updateMetadata(to metadata: Void) {}
    func updateProperties(to properties: TrackerProperties) {
        guard log.scopes.isEmpty, !properties.interstitials.isEmpty else { return }
        log.scopes = interstitialScopes(of: log.pods, schedule: properties.interstitials, on: log.timeline)
    }
    func disable(with properties: TrackerProperties) {}
    var observesProgress: Bool { true }

    func updateProgress(_ progress: PlaybackProgress) {
        let now = log.stopwatch.elapsed - progress.lag
        guard abs(progress.rate - 1) < 1e-3 else { return }
        let from: Double, to: Double, scope: String?
        if let interstitial = progress.interstitial {
            guard let base = PlaybackObservation.position(of: interstitial.event, on: log.timeline) else { return }
            (from, to, scope) = (base.milliseconds + interstitial.from.seconds * 1000, base.milliseconds + interstitial.to.seconds * 1000,
                                 interstitial.event.id)
        } else if log.timeline == .programDateTime {
            guard let fromDate = progress.fromDate, let toDate = progress.toDate else { return }
            (from, to, scope) = (fromDate.millisecondsSince1970, toDate.millisecondsSince1970, nil)
        } else {
            (from, to, scope) = (progress.from.seconds * 1000, progress.to.seconds * 1000, nil)
        }
        for pod in log.pods where log.scopes[pod.id] == scope {
            for ad in pod.ads where ad.startTime.milliseconds <= to && ad.endTime.milliseconds >= from {
                for event in ad.trackingEvents where log.crossings[event.id] == nil {
                    let time = event.startTime.milliseconds
                    if from < time, time <= to {
                        log.crossings[event.id] = now - .milliseconds(Int64(((to - time) / progress.rate).rounded()))
                    } else if event.event.firesOnEntry, time <= from, from < ad.endTime.milliseconds {
                        log.crossings[event.id] = now - .milliseconds(Int64(((to - from) / progress.rate).rounded()))
                    }
                }
            }
        }
    }
}

/// The interstitial each break belongs to: breaks whose start is within 500 ms of an interstitial's place on the ad
/// timeline.
func interstitialScopes(of pods: [AdPod], schedule: [InterstitialEvent], on timeline: AdTimeline) -> [String: String] {
    var scopes: [String: String] = [:]
    for pod in pods {
        for event in schedule {
            if let base = PlaybackObservation.position(of: event, on: timeline), abs(base.milliseconds - pod.startTime.milliseconds) <= 500 {
                scopes[pod.id] = event.id
            }
        }
    }
    return scopes
}

/// Harmonic's rule, re-implemented from REFERENCE §3: a 0.5 s timer and a window around each event; a late pass
/// over the ranges it saw played after each metadata poll. With interstitials (ADS-REFERENCE §1.6): while one plays,
/// the playhead is its date plus its time; once the stream has had one, beacons are checked only while one plays
/// (the flag is never reset), except one check at the instant the last one stopped, so that its `complete` fires.
@MainActor
final class HarmonicRule {
    private(set) var fired: [(key: TrackingEventKey, at: Duration)] = []
    private var states: [TrackingEventKey: Bool] = [:]
    private var pods: [AdPod] = []
    private var lastSample: (position: Double, at: Duration)?
    private var playedRanges: [ClosedRange<Double>] = []
    private var hasInterstitialEvents = false
    private var wasInInterstitial = false

    func metadataArrived(_ pods: [AdPod]) { self.pods = pods }

    /// One tick of the 0.5 s timer: the playhead (ms) at an instant; whether an interstitial plays, and where the last
    /// one stopped (ms on the ad timeline).
    func tick(position: Double, at instant: Duration, interstitialPlaying: Bool = false, stoppedAt: Double? = nil) {
        defer {
            lastSample = (position, instant)
            wasInInterstitial = interstitialPlaying
        }
        hasInterstitialEvents = hasInterstitialEvents || interstitialPlaying
        guard let last = lastSample else { return }
        let elapsed = (instant - last.at).seconds * 1000
        let speed = elapsed > 0 ? (position - last.position) / elapsed : 0
        if speed >= 0.95, speed <= 1.05, position > last.position { playedRanges.append(last.position...position) }
        var position = position
        if hasInterstitialEvents, !interstitialPlaying {
            // The exception: one check where the interstitial that just ended stopped.
            guard wasInInterstitial, let stoppedAt else { return }
            position = stoppedAt
        } else {
            guard speed > 0, speed <= 2.5 else { return }
        }
        for pod in pods {
            for ad in pod.ads {
                for event in ad.trackingEvents where event.event.kind == .automatic && states[event.id] == nil {
                    let window = (event.startTime.milliseconds - 500)...(event.startTime.milliseconds + max(event.duration.milliseconds, 1000))
                    if window.contains(position) { fire(event.id, at: instant) }
                }
            }
        }
    }

    /// The late pass after a poll: idle events inside the ranges recorded as played.
    func latePass(at instant: Duration) {
        for pod in pods {
            for ad in pod.ads {
                for event in ad.trackingEvents where event.event.kind == .automatic && states[event.id] == nil
                    && playedRanges.contains(where: { $0.contains(event.startTime.milliseconds) }) {
                    fire(event.id, at: instant)
                }
            }
        }
    }

    private func fire(_ key: TrackingEventKey, at instant: Duration) {
        states[key] = true
        fired.append((key, instant))
    }
}

struct RuleResult {
    var lateness: [Double] = []   // milliseconds
    var beacons = 0
    var misses = 0
    var extra = 0
    var duplicates = 0

    mutating func add(fired: [(key: TrackingEventKey, at: Duration)], expected: Set<TrackingEventKey>,
                      crossings: [TrackingEventKey: Duration]) {
        beacons += fired.count
        var seen: Set<TrackingEventKey> = []
        for (key, at) in fired {
            if !seen.insert(key).inserted { duplicates += 1; continue }
            guard expected.contains(key) else { extra += 1; continue }
            if let crossing = crossings[key] { lateness.append((at - crossing).seconds * 1000) }
        }
        misses += expected.subtracting(seen).count
    }

    func summary(_ name: String) -> String {
        let sorted = lateness.sorted()
        func percentile(_ p: Double) -> Double { sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))] }
        let early = sorted.filter { $0 < -0.5 }
        return "\(name): \(beacons) beacons, lateness p50 \(String(format: "%.1f", percentile(0.5))) ms, "
            + "p99 \(String(format: "%.1f", percentile(0.99))) ms, max \(String(format: "%.1f", sorted.last ?? .nan)) ms; "
            + (early.isEmpty ? "none early; " : "\(early.count) early (up to \(String(format: "%.0f", -early[0])) ms before the crossing); ")
            + "misses \(misses), duplicates \(duplicates), extra \(extra)"
    }
}

enum BenchmarkError: Error, CustomStringConvertible {
    case unsettled(UInt64)
    case notEnded(UInt64, String)
    var description: String {
        switch self {
        case .unsettled(let seed): "session \(seed): the player, the engine and the lab did not settle"
        case .notEnded(let seed, let state): "session \(seed): playback did not reach its end (\(state))"
        }
    }
}

/// Waits until the lab, the engines and the Player are quiescent (every request parked on the clock or done, the
/// Player's handled events stable), so that the clock moves on only when this instant's work is done.
@MainActor
func settleSession(lab: LabServer, engines: [HeadlessEngine], player: Player, seed: UInt64) async throws {
    let settled = await lab.settle(inFlight: { @Sendable in
        var count = 0
        for engine in engines { count += await engine.snapshot().requestsInFlight }
        return count
    })
    var stable = 0
    var handled = -1
    while stable < 3 {
        for _ in 0..<5 { await Task.yield() }
        if player.handledEventCount == handled, !player.hasPendingWork { stable += 1 } else { stable = 0 }
        handled = player.handledEventCount
    }
    if !settled { throw BenchmarkError.unsettled(seed) }
}

@MainActor
func run(seed: UInt64, playtrace: inout RuleResult, harmonic: inout RuleResult) async throws {
    let plan = SessionPlan(seed: seed)
    let clock = TestClock<Duration>()
    var quiet = Logger(label: "playtrace.lab")
    quiet.logLevel = .error
    let lab = LabServer(clock: clock, configuration: LabConfiguration(vodSegmentCount: Int(SessionPlan.contentSeconds / 4)), logger: quiet)
    let port = try await lab.start()
    for segment in plan.lateSegments { lab.faults.add(LabFault(pathContains: "/seg\(segment).ts", kind: .delay(milliseconds: 12_000))) }
    let transport = AsyncHTTPClientTransport(clock: clock)
    let rig = try SessionRig(url: URL(string: "http://127.0.0.1:\(port)/vod/master.m3u8")!, pods: plan.pods,
                             timeline: .mediaTime, script: plan.script, clock: clock, transport: transport)
    let (session, crossings, player, stopwatch) = (rig.session, rig.crossings, rig.player, rig.stopwatch)
    func settle() async throws { try await settleSession(lab: lab, engines: rig.engines.all, player: player, seed: seed) }
    let rule = HarmonicRule()
    let metadata = AdMetadata(pods: plan.pods, timeline: .mediaTime)
    var metadataApplied = false
    var nextRuleTick = Duration.milliseconds(500)
    var nextPoll = Duration.zero
    try await settle()
    player.play()
    while player.playbackState != .ended, stopwatch.elapsed < .seconds(3_600) {
        await clock.advance(by: .milliseconds(100))
        try await settle()
        let now = stopwatch.elapsed
        if !metadataApplied, now.seconds >= plan.metadataDelay {
            metadataApplied = true
            session.apply(metadata)
            rule.metadataArrived(plan.pods)
            nextPoll = now
        }
        if now >= nextRuleTick {
            rule.tick(position: player.time.seconds * 1000, at: now)
            nextRuleTick += .milliseconds(500)
        }
        if metadataApplied, now >= nextPoll {
            rule.latePass(at: now)
            nextPoll += .seconds(4)
        }
        if player.error != nil { break }
    }
    guard player.playbackState == .ended else { throw BenchmarkError.notEnded(seed, "\(player.playbackState) at \(player.time)") }
    let snapshot = try await rig.finalSnapshot(seed: seed, settle: settle)
    let expected = BeaconAudit.expectedEvents(in: plan.pods, played: BeaconAudit.playedIntervals(of: snapshot, on: .mediaTime))
    // The scheduler fires the events it catches up at the metadata's arrival: their lateness is the metadata's.
    playtrace.add(fired: session.beacons.map { ($0.firing.key, $0.sentAt) }, expected: expected, crossings: crossings.crossings)
    harmonic.add(fired: rule.fired, expected: expected, crossings: crossings.crossings)
    player.removeAllItems()
    for engine in rig.engines.all { await engine.stop() }
    try await transport.shutdown()
    await lab.stop()
}

extension SessionRig {
    /// What the item's engine played, as the item kept it when its session closed (which the Player does just after
    /// the end: settled until it has).
    func finalSnapshot(seed: UInt64, settle: () async throws -> Void) async throws -> EngineSnapshot {
        for _ in 0..<100 {
            if let snapshot = item.finalSnapshot { return snapshot }
            try await settle()
        }
        throw BenchmarkError.notEnded(seed, "the item kept no final snapshot")
    }
}

/// The Player of one session with its three trackers — the crossing recorder, Playtrace's ad tracker and the scripted
/// viewer — and the engines it makes (quiet: the retries of failing interstitials are what sessions are made of).
@MainActor
final class SessionRig {
    final class Engines {
        var all: [HeadlessEngine] = []
    }

    let session: AdBeaconingSession
    let crossings = CrossingRecorder.Log()
    let stopwatch: Stopwatch
    let engines = Engines()
    let player: Player
    /// The session's one item: once it has ended, no item is current, and what its engine played is the item's
    /// final snapshot.
    let item: PlayerItem

    init(url: URL, pods: [AdPod], timeline: AdTimeline, script: String, clock: TestClock<Duration>,
         transport: AsyncHTTPClientTransport) throws {
        session = AdBeaconingSession(outbox: try Outbox(path: nil, couriers: [], clock: clock), clock: clock)
        stopwatch = Stopwatch(clock: clock)
        crossings.stopwatch = stopwatch
        crossings.pods = pods
        crossings.timeline = timeline
        let runner = ViewerScriptRunner(script: try ViewerScript(parsing: script), clock: clock)
        item = PlayerItem.simple(url: url, trackerAdapters: [
            CrossingRecorder.adapter(configuration: crossings), AdTracker.adapter(configuration: session),
            ViewerScriptTracker.adapter(configuration: runner),
        ])
        let engines = engines
        player = Player(item: item, clock: clock) {
            var logger = Logger(label: "playtrace.headless")
            logger.logLevel = .error
            let engine = HeadlessEngine(clock: clock, transport: transport, logger: logger)
            engines.all.append(engine)
            return engine
        }
    }
}

@MainActor
func main() async -> Int32 {
    let count = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 12
    var playtrace = RuleResult()
    var harmonic = RuleResult()
    var latePlaytrace = RuleResult()
    var lateHarmonic = RuleResult()
    do {
        for seed in 0..<UInt64(count) {
            // Sessions whose metadata arrives late are reported apart: their beacons are as late as the metadata.
            if SessionPlan(seed: seed).metadataDelay > 0 {
                try await run(seed: seed, playtrace: &latePlaytrace, harmonic: &lateHarmonic)
            } else {
                try await run(seed: seed, playtrace: &playtrace, harmonic: &harmonic)
            }
        }
    } catch {
        FileHandle.standardError.write(Data("AdBeaconLateness: \(error)\n".utf8))
        return 1
    }
    var interstitialPlaytrace = RuleResult()
    var interstitialHarmonic = RuleResult()
    let interstitialCount = max(1, count / 2)
    do {
        for seed in 0..<UInt64(interstitialCount) {
            try await runInterstitials(seed: seed, playtrace: &interstitialPlaytrace, harmonic: &interstitialHarmonic)
        }
    } catch {
        FileHandle.standardError.write(Data("AdBeaconLateness: \(error)\n".utf8))
        return 1
    }
    let late = (0..<UInt64(count)).filter { SessionPlan(seed: $0).metadataDelay > 0 }.count
    print("ad beacon lateness, \(count) simulated sessions (5 min on demand, 5 breaks, random pauses, seeks and stalls; virtual time):")
    print("  metadata on time (\(count - late) sessions):")
    print("    " + playtrace.summary("playtrace    "))
    print("    " + harmonic.summary("harmonic rule"))
    print("  metadata 20-90 s late (\(late) sessions; what was played before it came is caught up at its arrival):")
    print("    " + latePlaytrace.summary("playtrace    "))
    print("    " + lateHarmonic.summary("harmonic rule"))
    print("  HLS interstitials (\(interstitialCount) sessions: pre-roll, 4 mid-rolls (one JUMP-restricted, one failing, one")
    print("  with a missing asset), post-roll, a stitched break; 5 min on demand; random pauses, seeks, skips, stalls):")
    print("    " + interstitialPlaytrace.summary("playtrace    "))
    print("    " + interstitialHarmonic.summary("harmonic rule"))
    return 0
}

exit(await main())
