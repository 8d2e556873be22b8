import Clocks
@testable import PlaytraceAds
import PlaytraceCore
import PlaytraceNetwork
import PlaytracePlayer
import Testing

/// Retiring breaks that the viewer cannot play again (``AdBeaconingSession/retireBreaks(endingBefore:)``): what they
/// held leaves the session, nothing they fired fires again, and the audit of them is what it would have been.
@Suite("Retired breaks", .serialized)
@MainActor
struct BreakRetirementTests {
    /// A break of two 10 s ads whose URLs are `about:blank` (settled as soon as fired) or one that no courier
    /// delivers (never settled here).
    private func pod(_ id: String, start: AdTime, settles: Bool = true) -> AdPod {
        var pod = AdFixtures.pod(id, start: start)
        guard settles else { return pod }
        for index in pod.trackingEvents.indices { pod.trackingEvents[index].signalingUrls = ["about:blank"] }
        for ad in pod.ads.indices {
            for index in pod.ads[ad].trackingEvents.indices { pod.ads[ad].trackingEvents[index].signalingUrls = ["about:blank"] }
        }
        return pod
    }

    @MainActor
    private struct Viewer {
        let clock = TestClock<Duration>()
        let session: AdBeaconingSession
        var played = MediaTimeRangeSet()
        var position = 0.0

        init() throws {
            session = AdBeaconingSession(outbox: try Outbox(path: nil, couriers: [], clock: clock), clock: clock)
            // The placement (the break the playhead is in) is followed for an observer.
            session.adPlaybackObserver = { _ in }
        }

        /// Plays on to `seconds` in 100 ms reports.
        mutating func play(to seconds: Double) async {
            while position < seconds - 1e-9 {
                let next = min(position + 0.1, seconds)
                await clock.advance(by: .milliseconds(100))
                session.observe(PlaybackProgress(from: MediaTime(seconds: position), to: MediaTime(seconds: next), rate: 1))
                played.insert(MediaTimeRange(start: MediaTime(seconds: position), end: MediaTime(seconds: next)))
                position = next
            }
        }

        var snapshot: EngineSnapshot { EngineSnapshot(playhead: MediaTime(seconds: position), playedRanges: played) }
    }

    @Test("A break played out and settled leaves with its beacons; listed again, it stays out and fires nothing twice")
    func retiredBreakStaysOut() async throws {
        var viewer = try Viewer()
        let session = viewer.session
        let metadata = AdMetadata(pods: [pod("p", start: 10_000), pod("q", start: 50_000)], timeline: .mediaTime)
        session.apply(metadata)
        await viewer.play(to: 40)
        let firedOfP = Set(session.beacons.map(\.firing.key))
        #expect(firedOfP.count == 14 && firedOfP.allSatisfy { $0.podID == "p" })

        // q has not ended before the bound: only p leaves.
        let retired = session.retireBreaks(endingBefore: 60_000)
        #expect(retired.map(\.pod.id) == ["p"])
        #expect(Set(retired[0].beacons.map(\.firing.key)) == firedOfP && retired[0].beacons.allSatisfy { $0.state == .done })
        #expect(session.expectedEvents(played: viewer.snapshot, in: retired) == firedOfP)
        #expect(session.adPods.map(\.id) == ["q"] && session.beacons.isEmpty)
        #expect(session.retiredBreakCount == 1 && session.retiredBeaconCount == 14)
        #expect(session.progressBoundaries.count == 14, "q's automatic events are the boundaries left")

        // The metadata lists p again: it is not merged back, and catching up what was played fires nothing of it.
        session.apply(metadata)
        #expect(session.adPods.map(\.id) == ["q"] && session.beacons.isEmpty)
        #expect(session.retireBreaks(endingBefore: 60_000).isEmpty, "nothing more to retire")

        await viewer.play(to: 75)
        #expect(session.beacons.count == 14 && session.beacons.allSatisfy { $0.firing.key.podID == "q" })
        #expect(session.expectedEvents(played: viewer.snapshot) == Set(session.beacons.map(\.firing.key)))
    }

    @Test("A break whose beacons still wait, or that the playhead is in, stays")
    func unsettledOrPlayingBreakStays() async throws {
        var viewer = try Viewer()
        let session = viewer.session
        session.apply(AdMetadata(pods: [pod("p", start: 10_000, settles: false), pod("q", start: 50_000)], timeline: .mediaTime))
        await viewer.play(to: 55)
        #expect(session.unsettledBeaconCount == 14, "p's beacons wait for a courier")
        #expect(session.retireBreaks(endingBefore: 200_000).isEmpty, "p waits; the playhead is in q")
        #expect(session.adPods.map(\.id) == ["p", "q"] && session.beacons.contains { $0.firing.key.podID == "q" })
        await viewer.play(to: 75)
        // Out of q now: q goes, p (still waiting) stays.
        #expect(session.retireBreaks(endingBefore: 200_000).map(\.pod.id) == ["q"])
        #expect(session.adPods.map(\.id) == ["p"] && session.beacons.count == 14)
    }

    @Test("Fates leave with their break; an added break retired is not added again")
    func fatesAndAddedBreaks() async throws {
        var viewer = try Viewer()
        let session = viewer.session
        session.addPods([pod("v", start: 10_000)])
        session.fates.pods["v"] = .skipped
        await viewer.play(to: 35)
        let retired = session.retireBreaks(endingBefore: 31_000)
        #expect(retired.map(\.pod.id) == ["v"] && retired[0].fate == .skipped)
        #expect(session.fates.pods.isEmpty && session.adPods.isEmpty)
        session.addPods([pod("v", start: 10_000)])
        #expect(session.adPods.isEmpty)
    }
}
