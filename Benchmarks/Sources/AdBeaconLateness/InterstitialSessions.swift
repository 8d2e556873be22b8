// Sessions on the lab's stream with interstitials (LabInterstitials, lengthened to 5 minutes): the ad metadata is
// the lab's Harmonic metadata for it (program-date-time: the stitched break and one break per interstitial, dated at
// the interstitial's START-DATE). Both rules watch the same sessions, as in main.swift.
import Clocks
import Foundation
import Logging
import PlaytraceAds
import PlaytraceCore
import PlaytraceHeadless
import PlaytraceLab
import PlaytraceNetwork
import PlaytracePlayer

/// One interstitial session's viewer and late segments.
struct InterstitialPlan {
    var script: String
    var lateSegments: [Int]
    /// An ad segment that arrives late (a stall inside an interstitial).
    var lateAdSegment: String?

    static let segmentCount = 75
    static var contentSeconds: Double { Double(segmentCount * 4) }

    init(seed: UInt64) {
        var random = SeededRandom(state: seed &+ 1_000)
        var actions: [(Double, String)] = []
        // Some viewers skip mid-2 when its skip control appears (it begins at 40 s).
        if seed % 2 == 1 { actions.append((39.9, "skip")) }
        var time = Double.random(in: 45...70, using: &random)
        while time < Self.contentSeconds - 30 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4: actions.append((time, "pause \(String(format: "%.2f", Double.random(in: 0.5...6, using: &random)))"))
            case 4..<6:
                let target = min(Self.contentSeconds - 20, time + Double.random(in: 5...50, using: &random))
                actions.append((time, "seek \(String(format: "%.2f", target))"))
                time = target
            case 6:
                // Back before the mid-rolls: they play again (no CUE=ONCE), their beacons are not sent twice.
                actions.append((time, "seek \(String(format: "%.2f", Double.random(in: 10...35, using: &random)))"))
            default: break
            }
            time += Double.random(in: 8...40, using: &random)
        }
        actions.sort { $0.0 < $1.0 }
        script = actions.map { "at \(String(format: "%.2f", $0.0)) \($0.1)" }.joined(separator: "; ")
        lateSegments = (0..<2).map { _ in Int.random(in: 3..<Self.segmentCount, using: &random) }
        lateAdSegment = seed % 3 == 0 ? "/ads/0/seg1.ts" : nil
    }
}

@MainActor
func runInterstitials(seed: UInt64, playtrace: inout RuleResult, harmonic: inout RuleResult) async throws {
    let plan = InterstitialPlan(seed: seed)
    let clock = TestClock<Duration>()
    var quiet = Logger(label: "playtrace.lab")
    quiet.logLevel = .error
    var configuration = LabConfiguration()
    configuration.interstitialStreamSegmentCount = InterstitialPlan.segmentCount
    let lab = LabServer(clock: clock, configuration: configuration, logger: quiet)
    let port = try await lab.start()
    let base = "http://127.0.0.1:\(port)"
    for segment in plan.lateSegments {
        lab.faults.add(LabFault(pathContains: "/interstitials/0/seg\(segment).ts", kind: .delay(milliseconds: 9_000)))
    }
    if let path = plan.lateAdSegment { lab.faults.add(LabFault(pathContains: path, kind: .delay(milliseconds: 3_000))) }
    let transport = AsyncHTTPClientTransport(clock: clock)
    // The metadata, on the stream's dates, from the lab's Harmonic endpoint.
    let response = try await transport.send(HTTPRequest(url: URL(string: "\(base)/ssai/harmonic/interstitials/metadata")!))
    let metadata = try HarmonicMetadataDecoder().decode(response.body)
    // Only the lowest variant, so that every played segment's URL is the one the faults name.
    let rig = try SessionRig(url: URL(string: "\(base)/interstitials/0/index.m3u8")!, pods: metadata.pods,
                             timeline: .programDateTime, script: plan.script, clock: clock, transport: transport)
    let (session, crossings, player, stopwatch) = (rig.session, rig.crossings, rig.player, rig.stopwatch)
    let rule = HarmonicRule()
    session.apply(metadata)
    rule.metadataArrived(metadata.pods)
    var nextRuleTick = Duration.milliseconds(500)
    var nextPoll = Duration.zero
    var lastInterstitial: (date: Double, time: Double)?
    try await settleSession(lab: lab, engines: rig.engines.all, player: player, seed: seed)
    player.play()
    while player.playbackState != .ended, stopwatch.elapsed < .seconds(3_600) {
        await clock.advance(by: .milliseconds(100))
        try await settleSession(lab: lab, engines: rig.engines.all, player: player, seed: seed)
        let now = stopwatch.elapsed
        if now >= nextRuleTick {
            // The reference's playhead: the interstitial's date plus its time while one plays, the stream date otherwise.
            let interstitial = player.currentInterstitial
            let date = interstitial?.event.startDate?.millisecondsSince1970
            if let interstitial, let date { lastInterstitial = (date, interstitial.time.seconds * 1000) }
            let position = date.map { $0 + (interstitial?.time.seconds ?? 0) * 1000 } ?? (player.date?.millisecondsSince1970 ?? 0)
            rule.tick(position: position, at: now, interstitialPlaying: interstitial != nil && player.playbackState == .playing,
                      stoppedAt: lastInterstitial.map { $0.date + $0.time })
            nextRuleTick += .milliseconds(500)
        }
        if now >= nextPoll {
            rule.latePass(at: now)
            nextPoll += .seconds(4)
        }
        if player.error != nil { break }
    }
    guard player.playbackState == .ended else { throw BenchmarkError.notEnded(seed, "\(player.playbackState) at \(player.time)") }
    let snapshot = try await rig.finalSnapshot(seed: seed) {
        try await settleSession(lab: lab, engines: rig.engines.all, player: player, seed: seed)
    }
    let scopes = interstitialScopes(of: metadata.pods, schedule: snapshot.interstitials, on: .programDateTime)
    let expected = BeaconAudit.expectedEvents(
        in: metadata.pods, played: BeaconAudit.playedIntervals(of: snapshot, on: .programDateTime),
        interstitials: BeaconAudit.playedInterstitialIntervals(of: snapshot, on: .programDateTime), scopes: scopes)
    playtrace.add(fired: session.beacons.filter { $0.firing.event.kind == .automatic }.map { ($0.firing.key, $0.sentAt) },
                  expected: expected, crossings: crossings.crossings)
    harmonic.add(fired: rule.fired, expected: expected, crossings: crossings.crossings)
    player.removeAllItems()
    for engine in rig.engines.all { await engine.stop() }
    try await transport.shutdown()
    await lab.stop()
}
