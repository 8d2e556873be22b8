import PlaytraceAds
import Testing

@Suite("Merging metadata responses keeps fired states")
struct AdPodMergerTests {
    /// The breaks after playing `from…to` through them.
    private func played(_ pods: [AdPod], to: AdTime) -> [AdPod] {
        var pods = pods
        var scheduler = BeaconScheduler()
        _ = scheduler.play(&pods, from: 0, to: to)
        return pods
    }

    @Test("A response with new cache busters and slightly moved times is the same events: states kept, URLs and times refreshed")
    func refreshed() {
        var merger = AdPodMerger()
        var current = merger.merge([AdFixtures.pod()], into: [], playhead: 0)
        current = played(current, to: 15_500)
        var next = AdFixtures.pod(cacheBuster: "?cb=2")
        next.ads[0].trackingEvents = next.ads[0].trackingEvents.map { event in
            var moved = event
            moved.startTime += 40
            return moved
        }
        let merged = merger.merge([next], into: current, playhead: 15_500)
        let firstQuartile = merged[0].ads[0].trackingEvents.first { $0.event == .firstQuartile }!
        #expect(firstQuartile.reportingState == .connecting)
        #expect(firstQuartile.startTime == 12_540 && firstQuartile.signalingUrls == ["https://t.example/p/a1/firstQuartile?cb=2"])
        #expect(firstQuartile.id.time == 12_500, "the identity keeps the time first seen")
        #expect(merged[0].ads[0].trackingEvents.first { $0.event == .thirdQuartile }?.reportingState == .idle)
    }

    @Test("An ad dropped from a response and restored later comes back with its states: nothing fires twice")
    func adDroppedAndRestored() {
        var merger = AdPodMerger()
        var current = played(merger.merge([AdFixtures.pod()], into: [], playhead: 0), to: 21_000)
        var withoutFirst = AdFixtures.pod()
        withoutFirst.ads.removeFirst()
        current = merger.merge([withoutFirst], into: current, playhead: 21_000)
        #expect(current[0].ads.map(\.id) == ["a2"])
        current = merger.merge([AdFixtures.pod()], into: current, playhead: 21_000)
        let states = AdFixtures.states(current)
        for name in AdFixtures.automaticNames { #expect(states["a1/\(name)"] == .connecting, "a1/\(name)") }
        var scheduler = BeaconScheduler()
        let again = scheduler.catchUp(&current) + scheduler.play(&current, from: 10_000, to: 21_000)
        #expect(again.allSatisfy { $0.key.adID != "a1" }, "\(again.map(\.key))")
    }

    @Test("A break dropped from a later response: kept when it has begun (the window moved on), withdrawn when ahead; expired after the retention")
    func breakDropped() {
        var merger = AdPodMerger()
        merger.retention = 60_000
        let early = AdFixtures.pod("early", start: 10_000)
        let later = AdFixtures.pod("later", start: 100_000)
        var current = merger.merge([early, later], into: [], playhead: 0)
        current = played(current, to: 35_000)
        current = merger.merge([], into: current, playhead: 35_000)
        #expect(current.map(\.id) == ["early"])
        current = merger.merge([], into: current, playhead: 30_000 + 60_001)
        #expect(current.isEmpty)
        // The withdrawn break comes back: its events are still idle (never fired), the early one's are remembered.
        current = merger.merge([early, later], into: current, playhead: 95_000)
        #expect(AdFixtures.states([current[0]])["a1/complete"] == .connecting)
        #expect(current[1].allTrackingEvents.allSatisfy { $0.reportingState == .idle })
    }

    @Test("Ads added during a break (live) join it; the ads already there keep their states")
    func adsAddedMidBreak() {
        var merger = AdPodMerger()
        var first = AdFixtures.pod(ads: 1)
        first.duration = 10_000
        var current = played(merger.merge([first], into: [], playhead: 0), to: 15_000)
        current = merger.merge([AdFixtures.pod(ads: 2)], into: current, playhead: 15_000)
        #expect(current[0].ads.map(\.id) == ["a1", "a2"])
        #expect(AdFixtures.states(current)["a1/midpoint"] == .connecting)
        #expect(AdFixtures.states(current)["a2/impression"] == .idle)
        #expect(current[0].trackingEvents.first { $0.event == .breakEnd }?.startTime == 30_000)
    }
}
