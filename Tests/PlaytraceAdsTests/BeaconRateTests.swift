import Clocks
import PlaytraceAds
import PlaytraceCore
import PlaytraceNetwork
import PlaytracePlayer
import Testing

/// The rate rule: crossings fire up to 2.5× (Harmonic's `MAX_TOLERANCE_IN_SPEED`); faster is fast-forwarding and
/// fires nothing, as a seek; and the audit (``AdBeaconingSession/expectedEvents(played:)``) expects exactly what the
/// scheduler fires, whatever the rates.
@Suite("Beacons at the rates viewers use", .serialized)
@MainActor
struct BeaconRateTests {
    /// A session on a media-time timeline with one break at 10 s of two 10 s ads, fed the progress reports of an
    /// engine playing `segments` (each a span of media seconds and its rate) in 100 ms ticks, and the snapshot such an
    /// engine would give.
    private func play(_ segments: [(from: Double, to: Double, rate: Double)]) async throws
        -> (fired: Set<TrackingEventKey>, expected: Set<TrackingEventKey>) {
        let clock = TestClock<Duration>()
        let outbox = try Outbox(path: nil, couriers: [], clock: clock)
        let session = AdBeaconingSession(outbox: outbox, clock: clock)
        session.apply(AdMetadata(pods: [AdFixtures.pod()], timeline: .mediaTime))
        var played = MediaTimeRangeSet()
        for segment in segments {
            var position = segment.from
            while position < segment.to - 1e-9 {
                let next = min(position + 0.1 * segment.rate, segment.to)
                await clock.advance(by: .milliseconds(100))
                session.observe(PlaybackProgress(from: MediaTime(seconds: position), to: MediaTime(seconds: next),
                                                 rate: segment.rate))
                played.insert(MediaTimeRange(start: MediaTime(seconds: position), end: MediaTime(seconds: next)))
                position = next
            }
        }
        let snapshot = EngineSnapshot(playhead: MediaTime(seconds: segments.last?.to ?? 0), playedRanges: played)
        session.stop()
        return (Set(session.beacons.filter { $0.firing.event.kind == .automatic }.map(\.firing.key)),
                session.expectedEvents(played: snapshot))
    }

    private func names(_ keys: Set<TrackingEventKey>) -> [String] {
        keys.map { "\($0.adID ?? "-")/\($0.event.rawValue)" }.sorted()
    }

    @Test("At 1.5×, 2× and 2.5× every automatic event of the break fires, once; the audit expects the same", arguments: [1.5, 2, 2.5])
    func beaconingRates(rate: Double) async throws {
        let result = try await play([(0, 40, rate)])
        #expect(result.fired.count == 14, "\(names(result.fired))")
        #expect(result.fired == result.expected)
    }

    @Test("At 4× nothing fires and nothing is expected: fast-forwarding, as a seek", arguments: [3.0, 4, 8])
    func fastForward(rate: Double) async throws {
        let result = try await play([(0, 40, rate)])
        #expect(result.fired.isEmpty, "\(names(result.fired))")
        #expect(result.expected.isEmpty, "\(names(result.expected))")
    }

    @Test("Into an ad at 4×, then 1×: the break's and ad's entry events fire, the quartile passed fast does not; audit agrees")
    func fastThenNormal() async throws {
        // The first ad runs 10–20 s: its first quartile (12.5 s) is passed at 4×, its midpoint (15 s) at 1×.
        let result = try await play([(0, 14, 4), (14, 40, 1)])
        #expect(names(result.fired) == [
            "-/breakEnd", "-/breakStart", "a1/complete", "a1/impression", "a1/midpoint", "a1/start", "a1/thirdQuartile",
            "a2/complete", "a2/firstQuartile", "a2/impression", "a2/midpoint", "a2/start", "a2/thirdQuartile",
        ])
        #expect(result.fired == result.expected)
    }

    @Test("Passed at 4×, then played again at 1× after a seek back: what was played at 1× is expected and fires")
    func fastThenReplayed() async throws {
        let result = try await play([(0, 22, 4), (11, 40, 1)])
        #expect(result.fired.contains(TrackingEventKey(podID: "p", adID: "a1", event: .firstQuartile, time: 12_500)))
        #expect(result.fired.count == 14, "all of it was played at 1× after the seek back, or entered")
        #expect(result.fired == result.expected, "fired \(names(result.fired)), expected \(names(result.expected))")
    }

    @Test("Range subtraction: pieces in order, touching cuts joined, slivers under a millisecond dropped")
    func subtraction() {
        #expect(BeaconAudit.subtracting([], from: [0...10]) == [0...10])
        #expect(BeaconAudit.subtracting([2...3, 3...4, 8...20], from: [0...10, 15...30]) == [0...2, 4...8, 20...30])
        #expect(BeaconAudit.subtracting([0.0005...10], from: [0...10.5]).isEmpty)
        #expect(BeaconAudit.subtracting([-5...50], from: [0...10]).isEmpty)
    }

    @Test("Played spans on dates: a playback that began exactly on an ad boundary begins there, not a rounding error before")
    func datesKeepBoundaries() {
        // Joined at media 12 s, the segment's date 1,767,226,796 s: the date at the playhead 7.63 s later carries
        // the rounding of a double of 1.7e9 seconds.
        let start = 1_767_226_796.0
        var played = MediaTimeRangeSet()
        played.insert(MediaTimeRange(start: MediaTime(seconds: 12), end: MediaTime(seconds: 19.63060079513611)))
        let snapshot = EngineSnapshot(playhead: MediaTime(seconds: 19.63060079513611),
                                      streamDate: StreamDate(secondsSince1970: start + (19.63060079513611 - 12)),
                                      playedRanges: played)
        let intervals = BeaconAudit.playedIntervals(of: snapshot, on: .programDateTime)
        #expect(intervals.count == 1)
        #expect(intervals.first?.lowerBound == AdTime(milliseconds: start * 1_000))
    }
}
