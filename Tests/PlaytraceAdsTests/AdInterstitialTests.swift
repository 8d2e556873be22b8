import Foundation
import PlaytraceAds
import PlaytraceCore
import PlaytraceLab
import PlaytraceNetwork
import PlaytracePlayer
import PlaytraceTestSupport
import Testing

/// Ad tracking during HLS interstitials, against the lab's stream with interstitials (``LabInterstitials``) and its
/// Harmonic metadata: the stitched break `break-1` (8…16 s) and one break per interstitial, dated at the
/// interstitial's `START-DATE`, one ad per asset.
@Suite("Ad tracking: HLS interstitials", .serialized)
@MainActor
struct AdInterstitialTests {
    private func startSession(_ h: AdSessionHarness) async throws {
        let provider = HarmonicAdProvider(transport: h.transport, clock: h.clock)
        let info = try #require(await h.session.start(
            mediaUrl: URL(string: "\(h.base)/ssai/harmonic/interstitials/master.m3u8")!, provider: provider))
        await h.makePlayer(url: info.manifestUrl)
    }

    private func playToEnd(_ h: AdSessionHarness, limit: Duration = .seconds(150)) async {
        let player = h.player!
        let met = await ClockStepper(clock: h.clock).advance(until: { player.playbackState == .ended }, limit: limit,
                                                             step: .milliseconds(100)) { await h.settle() }
        #expect(met, "the item did not end")
    }

    private func paths(_ ads: [String], under pod: String) -> [String] {
        ads.flatMap { ad in AdFixtures.automaticNames.map { "/beacons/harmonic/\(pod)/\(ad)/\($0)" } }
    }

    @Test("Played through: the stitched break and every interstitial played are beaconed once; failed ones never")
    func playedThrough() async throws {
        let h = try await AdSessionHarness(playing: nil)
        try await startSession(h)
        #expect(h.session.adPods.map(\.id) == ["pre", "break-1", "mid-1", "mid-2", "mid-3", "mid-4", "post"])
        h.player.play()
        await playToEnd(h)
        #expect(h.session.playerObserver.hasInterstitialEvents)
        #expect(h.session.playerObserver.interstitialDate == LabConfiguration().startDate + MediaTime(seconds: 80))
        try await h.shutdown()

        let hits = h.lab.beacons.accepted().map(\.path)
        // mid-3's asset list is missing and mid-4's first asset too: those ads never play.
        let expected = paths(["ad-1"], under: "pre") + paths(["ad-1", "ad-2"], under: "break-1")
            + paths(["ad-1", "ad-2"], under: "mid-1") + paths(["ad-1", "ad-2"], under: "mid-2")
            + paths(["ad-2"], under: "mid-4") + paths(["ad-1"], under: "post")
        #expect(hits.sorted() == expected.sorted(), "\(Set(hits).symmetricDifference(expected).sorted())")
        // Interstitial breaks say where they play in [BREAKPOSITION]; the engine times its ticks to the events.
        let late = h.session.beacons.filter { $0.lateness > .milliseconds(1) }
        #expect(late.isEmpty, "\(late.map { "\($0.firing.key) \($0.firing.cause) \($0.lateness)" })")
        // And each says why: mid-3 could not play (its asset list), mid-4's first ad's media failed.
        guard case .failed(let reason)? = h.session.fates.pods["mid-3"] else {
            Issue.record("\(h.session.fates)")
            return
        }
        #expect(reason.contains("404"), "\(reason)")
        guard case .mediaFailed(let media)? = h.session.fates.ad("ad-1", in: "mid-4") else {
            Issue.record("\(h.session.fates)")
            return
        }
        #expect(media.contains("404"), "\(media)")
        #expect(h.session.fates.pods.count == 1 && h.session.fates.ads.count == 1, "\(h.session.fates)")
    }

    @Test("MediaTailor, on a media-time timeline: an interstitial's avail is placed where its date falls, before X-SNAP")
    func mediaTailorOffsets() async throws {
        let h = try await AdSessionHarness(playing: nil)
        let provider = MediaTailorAdProvider(transport: h.transport, clock: h.clock)
        let info = try #require(await h.session.start(
            mediaUrl: URL(string: "\(h.base)/ssai/mediatailor/v1/session/lab/origin/interstitials/master.m3u8")!, provider: provider))
        await h.makePlayer(url: info.manifestUrl)
        h.player.play()
        await playToEnd(h)
        #expect(h.session.timeline == .mediaTime)
        #expect(h.session.interstitialOfPod["mid-1"] == "mid-1", "mid-1's avail at 21.6 s, its interstitial snapped to 20 s")
        try await h.shutdown()
        let hits = h.lab.beacons.accepted(under: "/beacons/mediatailor/").map { String($0.path.dropFirst("/beacons/mediatailor/".count)) }
        func avail(_ id: String, _ ads: [String]) -> [String] {
            ["\(id)/-/breakStart", "\(id)/-/breakEnd"] + ads.flatMap { ad in AdFixtures.automaticNames.map { "\(id)/\(ad)/\($0)" } }
        }
        let expected = avail("pre", ["ad-1"]) + avail("break-1", ["ad-1", "ad-2"]) + avail("mid-1", ["ad-1", "ad-2"])
            + avail("mid-2", ["ad-1", "ad-2"]) + avail("mid-4", ["ad-2"]) + avail("post", ["ad-1"])
        #expect(hits.sorted() == expected.sorted(), "\(Set(hits).symmetricDifference(expected).sorted())")
    }

    @Test("A skipped interstitial is beaconed only for what played; jumped-over ones never; the primary under them fires nothing")
    func skippedAndJumped() async throws {
        let h = try await AdSessionHarness(playing: nil)
        try await startSession(h)
        h.player.play()
        await h.play(until: 34)
        // A seek to 70 s passes mid-2 (JUMP-restricted: it plays first), mid-3 and mid-4 (jumped over).
        h.player.seek(.at(MediaTime(seconds: 70)))
        let player = h.player!
        _ = await ClockStepper(clock: h.clock).advance(until: { player.canSkipInterstitial }, limit: .seconds(20),
                                                   step: .milliseconds(100)) { await h.settle() }
        #expect(h.player.currentInterstitial?.event.id == "mid-2")
        #expect(h.player.skipInterstitial())
        await playToEnd(h)
        try await h.shutdown()

        let hits = h.lab.beacons.accepted().map(\.path)
        // mid-2 was skipped when its skip control appeared, 2 s into its first 8 s ad: the first quartile was reached,
        // and the ad reports the skip.
        let expected = paths(["ad-1"], under: "pre") + paths(["ad-1", "ad-2"], under: "break-1")
            + paths(["ad-1", "ad-2"], under: "mid-1")
            + ["impression", "start", "firstQuartile", "skip"].map { "/beacons/harmonic/mid-2/ad-1/\($0)" }
            + paths(["ad-1"], under: "post")
        #expect(hits.sorted() == expected.sorted(), "\(Set(hits).symmetricDifference(expected).sorted())")

        // What did not play says why: mid-2 and both its ads skipped by the viewer (its first ad's events after the
        // skip, and every event of the second, on one row with the reason); mid-3 and mid-4, jumped over, not reached.
        #expect(h.session.fates == AdFates(pods: ["mid-2": .skipped], ads: ["mid-2": ["ad-1": .skipped, "ad-2": .skipped]]))
        let list = AdPodList(pods: h.session.adPods, fates: h.session.fates) { String(Int($0.milliseconds)) }
        #expect(list.rows.first { $0.id == "mid-2" }?.detail == "2 ad(s), skipped by the viewer")
        let unfired = list.rows.filter { $0.kind == .unfiredEvents && $0.podID == "mid-2" }
        #expect(unfired.map(\.adID) == ["ad-1", "ad-2"])
        #expect(unfired.first?.sentence == "not fired (skipped by the viewer): midpoint, thirdQuartile, complete")
        #expect(!list.rows.contains { $0.kind == .event && $0.podID == "mid-2" && $0.state == .idle })
        #expect(list.rows.filter { $0.kind == .unreachedPods }.map(\.title) == ["2 break(s) not reached (no event fired)"])
    }
}
