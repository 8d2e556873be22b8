import Foundation
import Observation
import PlaytraceCore
import PlaytraceLab
@_spi(Benchmarking) import PlaytracePlayer
import Testing

@Suite("Player: observation that does not churn")
@MainActor
struct PlayerObservationChurnTests {
    @Test("A minute of steady playback invalidates no reading but the buffered range's, the buffer's and the snapshot's")
    // Before the split, every reading taken from the snapshot (seekable range, buffer, renditions, interstitial,
    // media type) was invalidated as often as the snapshot: 76 times in this minute.
    func steadyPlayback() async throws {
        let log = TrackerLog()
        var lab = LabConfiguration(vodSegmentCount: 30)
        lab.vodHasInterstitial = false  // an interstitial that plays changes currentInterstitial, as it should
        let harness = try await PlayerHarness(lab: lab) { h in [h.item("A", log: log)] }
        let player = harness.player!
        player.play()
        await harness.advance(by: .seconds(10))
        let counter = InvalidationCounter()
        counter.trackReadings(of: player)
        await harness.advance(by: .seconds(60))
        counter.stop()
        let counts = counter.counts
        let rare = counts.filter { !["buffer", "loadedTimeRange", "engineSnapshot"].contains($0.key) }
        #expect(rare.values.allSatisfy { $0 == 0 }, "\(rare.filter { $0.value > 0 })")
        #expect(counts["buffer"] ?? 0 <= 16, "at most one per 4 s segment downloaded")
        #expect(counts["loadedTimeRange"] ?? 0 <= 16, "at most one per 4 s segment downloaded")
        #expect(counts["engineSnapshot"] ?? 0 >= 30, "the snapshot itself changes at every engine event")
        await harness.shutdown()
    }
}
