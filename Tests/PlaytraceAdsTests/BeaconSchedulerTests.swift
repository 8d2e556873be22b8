import PlaytraceAds
import PlaytraceCore
import Testing

@Suite("Beacon scheduler: crossings, not windows")
struct BeaconSchedulerTests {
    private func names(_ firings: [BeaconFiring]) -> [String] {
        firings.map { "\($0.key.adID ?? "-")/\($0.event.rawValue)" }
    }

    @Test("Playing through a break fires every automatic event once, each recorded at its exact crossing")
    func playThrough() {
        var pods = [AdFixtures.pod()]
        var scheduler = BeaconScheduler()
        let firings = scheduler.play(&pods, from: 0, to: 40_000)
        // In the order of their crossings (those at one instant in any order).
        #expect(Set(names(firings)) == ["-/breakStart", "a1/impression", "a1/start", "a1/firstQuartile", "a1/midpoint",
                                        "a1/thirdQuartile", "a1/complete", "a2/impression", "a2/start", "a2/firstQuartile",
                                        "a2/midpoint", "a2/thirdQuartile", "a2/complete", "-/breakEnd"])
        #expect(firings.map(\.crossing) == firings.map(\.crossing).sorted())
        #expect(firings.count == 14)
        for firing in firings {
            #expect(firing.crossing == .milliseconds(Int64(firing.mediaTime.milliseconds)), "\(firing.key)")
            #expect(firing.cause == .crossed)
        }
        let states = AdFixtures.states(pods)
        #expect(states["a1/pause"] == .idle && states["a1/complete"] == .connecting)
        #expect(scheduler.play(&pods, from: 40_000, to: 41_000).isEmpty)
    }

    @Test("A late tick and a stall across a quartile: it still fires, once, at the interpolated crossing")
    func lateTickAndStall() {
        var pods = [AdFixtures.pod()]
        var scheduler = BeaconScheduler()
        // One 2.6 s tick over the break's start and the first quartile (12.5 s).
        var firings = scheduler.observe(.played(from: 10_000, to: 12_600, rate: 1, at: .milliseconds(12_600)), pods: &pods)
        #expect(Set(names(firings)) == ["-/breakStart", "a1/impression", "a1/start", "a1/firstQuartile"])
        #expect(firings.first { $0.event == .firstQuartile }?.crossing == .milliseconds(12_500))
        // A stall at 14.9 s for 3 s, then playback crosses the midpoint (15 s).
        firings = scheduler.observe(.played(from: 12_600, to: 14_900, rate: 1, at: .milliseconds(14_900)), pods: &pods)
        #expect(firings.isEmpty)
        firings = scheduler.observe(.played(from: 14_900, to: 15_100, rate: 1, at: .milliseconds(18_100)), pods: &pods)
        #expect(names(firings) == ["a1/midpoint"])
        #expect(firings.first?.crossing == .milliseconds(18_000))
    }

    @Test("A seek over a break fires nothing of it")
    func seekOver() {
        var pods = [AdFixtures.pod()]
        var scheduler = BeaconScheduler()
        #expect(scheduler.play(&pods, from: 0, to: 5_000).isEmpty)
        #expect(scheduler.observe(.jumped(from: 5_000, to: 40_000, at: .seconds(5)), pods: &pods).isEmpty)
        #expect(scheduler.play(&pods, from: 40_000, to: 45_000, offset: -35_000).isEmpty)
        #expect(AdFixtures.states(pods).values.allSatisfy { $0 == .idle })
    }

    @Test("A seek into the middle of an ad fires its impression and start (and breakStart), never what was jumped over")
    func seekIntoAd() {
        var pods = [AdFixtures.pod()]
        var scheduler = BeaconScheduler()
        _ = scheduler.play(&pods, from: 0, to: 5_000)
        _ = scheduler.observe(.jumped(from: 5_000, to: 14_000, at: .seconds(5)), pods: &pods)
        let firings = scheduler.play(&pods, from: 14_000, to: 16_000, offset: -9_000)
        #expect(Set(names(firings)) == ["-/breakStart", "a1/impression", "a1/start", "a1/midpoint"])
        let entered = firings.filter { $0.cause == .entered }
        #expect(Set(entered.map(\.event)) == [.breakStart, .impression, .start])
        #expect(entered.allSatisfy { $0.crossing == .milliseconds(5_000) })
        #expect(entered.filter { $0.key.adID != nil }.allSatisfy { $0.adPlayhead == 4_000 })
        #expect(AdFixtures.states(pods)["a1/firstQuartile"] == .idle)
        // Played on to the end: the first quartile, jumped over, never fires.
        let rest = scheduler.play(&pods, from: 16_000, to: 31_000, offset: -9_000)
        #expect(!names(rest).contains("a1/firstQuartile"))
        #expect(names(rest).contains("a1/complete") && names(rest).contains("-/breakEnd"))
    }

    @Test("Rewinding into a played ad fires its rewind event, and never re-fires automatic events")
    func rewind() {
        var pods = [AdFixtures.pod()]
        var scheduler = BeaconScheduler()
        _ = scheduler.play(&pods, from: 0, to: 25_000)
        let rewound = scheduler.observe(.jumped(from: 25_000, to: 12_000, at: .seconds(25)), pods: &pods)
        #expect(names(rewound) == ["a1/rewind"])
        #expect(rewound.first?.occurrence == 1 && rewound.first?.cause == .playerAction)
        #expect(scheduler.play(&pods, from: 12_000, to: 25_000, offset: 13_000).isEmpty)
        // Rewinding into an ad never played (a2 beyond 25 s is not; a jump back within unplayed media) fires nothing.
        var fresh = [AdFixtures.pod()]
        var other = BeaconScheduler()
        _ = other.observe(.jumped(from: 35_000, to: 22_000, at: .zero), pods: &fresh)
        #expect(AdFixtures.states(fresh).values.allSatisfy { $0 == .idle })
    }

    @Test("Player-initiated reports fire every event of that type in the ad under the playhead, each with its own key")
    func playerInitiated() throws {
        var pods = [AdFixtures.pod()]
        pods[0].ads[0].trackingEvents.append(AdFixtures.event(.pause, pod: "p", ad: "a1", at: 10_001, url: "https://second.example/pause"))
        var scheduler = BeaconScheduler()
        let first = scheduler.report(.pause, at: 13_000, instant: .seconds(13), pods: &pods)
        #expect(first.count == 2 && first.allSatisfy { $0.occurrence == 1 })
        let second = scheduler.report(.pause, at: 14_000, instant: .seconds(20), pods: &pods)
        #expect(second.allSatisfy { $0.occurrence == 2 })
        let date = StreamDate(secondsSince1970: 1_800_000_000)
        #expect(Set((first + second).map { $0.deliveryKey(session: "s", reportedAt: date) }).count == 4)
        // After a restart the counts begin again: the report's date keeps the keys apart.
        var restarted = BeaconScheduler()
        let afterRestart = restarted.report(.pause, at: 13_000, instant: .seconds(1), pods: &pods)[0]
        #expect(afterRestart.occurrence == 1)
        #expect(afterRestart.deliveryKey(session: "s", reportedAt: date + MediaTime(seconds: 60))
                != first[0].deliveryKey(session: "s", reportedAt: date))
        // An automatic event has one key in every run of the session, and another in another session.
        var fresh = [AdFixtures.pod()]
        var another = BeaconScheduler()
        let automatic = try #require(another.play(&fresh, from: 9_900, to: 10_100).first)
        #expect(automatic.deliveryKey(session: "s", reportedAt: date) == "beacon:s:p/-/breakStart@10000")
        #expect(automatic.deliveryKey(session: "t", reportedAt: date + MediaTime(seconds: 9)) == "beacon:t:p/-/breakStart@10000")
        #expect(scheduler.report(.pause, at: 5_000, instant: .seconds(5), pods: &pods).isEmpty, "no ad under the playhead")
        #expect(scheduler.report(.skip, at: 13_000, instant: .seconds(5), pods: &pods).isEmpty, "the ad has no skip event")
        #expect(AdFixtures.states(pods)["a1/impression"] == .idle, "a report fires no automatic event")
    }

    @Test("Crossings fire up to 2.5× by default, never at rate 0, and within any configured range only")
    func rates() {
        var pods = [AdFixtures.pod()]
        var scheduler = BeaconScheduler()
        #expect(scheduler.play(&pods, from: 0, to: 40_000, rate: 2).count == 14)
        var fast = [AdFixtures.pod()]
        #expect(scheduler.play(&fast, from: 0, to: 40_000, rate: 2.6).isEmpty)
        #expect(!scheduler.firesAt(rate: 0) && scheduler.firesAt(rate: 0.25) && scheduler.firesAt(rate: 2.5))
        var others = [AdFixtures.pod()]
        var strict = BeaconScheduler()
        strict.playbackRates = 1...1
        #expect(strict.play(&others, from: 0, to: 40_000, rate: 2).isEmpty)
        #expect(strict.play(&others, from: 0, to: 40_000, rate: 1).count == 14)
    }

    @Test("Metadata that arrives after the playhead passed a break is caught up for the parts played, once")
    func lateMetadata() {
        var pods: [AdPod] = []
        var scheduler = BeaconScheduler()
        _ = scheduler.play(&pods, from: 0, to: 11_000)
        _ = scheduler.observe(.jumped(from: 11_000, to: 16_000, at: .seconds(11)), pods: &pods)
        _ = scheduler.play(&pods, from: 16_000, to: 30_000, offset: -5_000)
        pods = [AdFixtures.pod()]
        let caught = scheduler.catchUp(&pods)
        #expect(Set(names(caught)) == ["-/breakStart", "a1/impression", "a1/start", "a1/thirdQuartile", "a1/complete",
                                       "a2/impression", "a2/start", "a2/firstQuartile", "a2/midpoint", "a2/thirdQuartile",
                                       "a2/complete", "-/breakEnd"])
        #expect(caught.allSatisfy { $0.cause == .caughtUp })
        #expect(caught.first { $0.key.adID == "a1" && $0.event == .thirdQuartile }?.crossing == .milliseconds(12_500))
        #expect(scheduler.catchUp(&pods).isEmpty)
        // The playhead goes on from 30 s: nothing of the break fires again.
        #expect(scheduler.play(&pods, from: 30_000, to: 35_000, offset: -5_000).isEmpty)
    }

    @Test("Tick sizes do not change what fires: 10 ms to 5 s ticks give the same events")
    func tickSizes() {
        var reference: Set<String>?
        for tick: AdTime in [10.0, 100, 500, 1_000, 2_500, 5_000] {
            var pods = [AdFixtures.pod(), AdFixtures.pod("q", start: 60_000, adDuration: 7_300, ads: 3)]
            var scheduler = BeaconScheduler()
            let fired = Set(scheduler.play(&pods, from: 0, to: 100_000, tick: tick).map { "\($0.key)" })
            #expect(fired.count == 14 + 3 * 6 + 2, "tick \(tick)")
            if let reference { #expect(fired == reference, "tick \(tick)") } else { reference = fired }
        }
    }
}
