import Foundation
import PlaytraceAds
import PlaytraceCore
import PlaytraceLab
import PlaytraceNetwork
import PlaytracePlayer
import Testing

/// MediaTailor's and Harmonic's DASH sessions against the lab, through the headless engine on a test clock: the
/// session's MPD played (its ad period a SCTE-35 break), its metadata on DASH's time bases, every beacon once.
@Suite("Ad sessions on DASH", .serialized)
@MainActor
struct AdDASHSessionTests {
    /// Sets a session up from `path` (a DASH session URL) with `provider`, and plays from its MPD.
    private static func start(_ h: AdSessionHarness, _ path: String, provider: any AdMetadataProvider) async throws {
        h.session.metadataUpdateInterval = .seconds(2)
        let info = try #require(await h.session.start(mediaUrl: URL(string: "\(h.base)\(path)")!, provider: provider))
        #expect(info.manifestUrl.path.hasSuffix("/manifest.mpd"), "\(info.manifestUrl)")
        await h.makePlayer(url: info.manifestUrl)
    }

    /// The lab's sink hits under `prefix`, as `break/ad/event`.
    private static func hits(_ h: AdSessionHarness, under prefix: String) -> [String] {
        h.lab.beacons.accepted(under: prefix).map { String($0.path.dropFirst(prefix.count)) }
    }

    @Test("MediaTailor, on demand: the session's MPD (its own Location) plays its ad period; every beacon once")
    func mediaTailorOnDemand() async throws {
        var expected = ["break-1/-/breakStart", "break-1/-/breakEnd"]
        expected += ["ad-1", "ad-2"].flatMap { ad in AdFixtures.automaticNames.map { "break-1/\(ad)/\($0)" } }
        let h = try await Self.playsOnDemand("/ssai/mediatailor/v1/session/lab/origin/vod/manifest.mpd",
                                             sink: "/beacons/mediatailor/", expected: expected) {
            MediaTailorAdProvider(transport: $0.transport, clock: $0.clock)
        }
        // The MPD came from the session's path, its segments from the lab's DASH presentation.
        let paths = h.lab.requests.all.map(\.path)
        #expect(paths.contains("/ssai/mediatailor/v1/dash/lab/origin/vod/manifest.mpd"))
        #expect(paths.contains { $0.hasPrefix("/dash/ads/") } && paths.contains { $0.hasPrefix("/dash/vod/") })
    }

    @Test("Harmonic, on demand: positions are the presentation time plus the MPD's start; every beacon once")
    func harmonicOnDemand() async throws {
        let expected = ["ad-1", "ad-2"].flatMap { ad in AdFixtures.automaticNames.map { "break-1/\(ad)/\($0)" } }
        _ = try await Self.playsOnDemand("/ssai/harmonic/vod/manifest.mpd", sink: "/beacons/harmonic/", expected: expected) {
            HarmonicAdProvider(transport: $0.transport, clock: $0.clock)
        }
    }

    @Test("Signaling, on demand: the MPD's SVTA2053 events are the beacon source, no tracking API; every beacon once")
    func signalingOnDemand() async throws {
        let names = ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete", "progress"]
        let expected = ["ad-1", "ad-2"].flatMap { ad in names.map { "break-1/\(ad)/\($0)" } }
        let h = try await Self.playsOnDemand("/dash/vod/manifest.mpd", sink: "/beacons/signaling/dash/", expected: expected) {
            ManifestSignalingAdProvider(transport: $0.transport, clock: $0.clock)
        }
        #expect(h.session.adPods.map(\.id) == ["content-1_1/ad-1", "content-1_1/ad-2"])
        // The set-up's MPD is the first metadata: once for the ad session, once for the engine.
        #expect(h.lab.requests.all.filter { $0.path == "/dash/vod/manifest.mpd" }.count == 2)
    }

    /// Plays an on-demand DASH session through its break (to 18 s): the sink's hits under `sink` are `expected`.
    private static func playsOnDemand(_ path: String, sink: String, expected: [String],
                                      provider: (AdSessionHarness) -> any AdMetadataProvider) async throws -> AdSessionHarness {
        let h = try await AdSessionHarness(playing: nil)
        try await start(h, path, provider: provider(h))
        h.player.play()
        await h.play(until: 18)
        try await h.shutdown()
        #expect(hits(h, under: sink).sorted() == expected.sorted())
        return h
    }

    @Test("MediaTailor, live: times from MPD@availabilityStartTime (dashAvailabilityStartTime); each break played, once")
    func mediaTailorLive() async throws {
        try await Self.playsLive("/ssai/mediatailor/v1/session/lab/origin/live/manifest.mpd", sink: "/beacons/mediatailor/") {
            MediaTailorAdProvider(transport: $0.transport, clock: $0.clock)
        }
    }

    @Test("Harmonic, live: positions are the MPD's dates, as its metadata's; each break played, once")
    func harmonicLive() async throws {
        try await Self.playsLive("/ssai/harmonic/live/manifest.mpd", sink: "/beacons/harmonic/") {
            HarmonicAdProvider(transport: $0.transport, clock: $0.clock)
        }
    }

    @Test("Harmonic, live, with prft: startTimes 6 s off the media, prftStartTimes right; placed on the producer's clock")
    func harmonicLiveProducerClock() async throws {
        var configuration = LabConfiguration()
        configuration.harmonicDASHStartTimeSkew = 6
        let (h, snapshot) = try await Self.playsLive("/ssai/harmonic/live/manifest.mpd", sink: "/beacons/harmonic/",
                                                     labConfiguration: configuration) {
            HarmonicAdProvider(transport: $0.transport, clock: $0.clock)
        }
        #expect(snapshot?.producerClockOffset == .milliseconds(1_500), "the segments' prft: the encoder 1.5 s ahead of the stream's dates")
        #expect(h.session.producerClockPlacement == "on the producer's clock (prft): +1.500 s from the stream's dates")
        // Each event at its prftStartTime less the offset: its written startTime (its key) less the skew.
        let fired = h.session.beacons.map(\.firing)
        #expect(!fired.isEmpty)
        for firing in fired {
            #expect(abs(firing.mediaTime.milliseconds - (Double(firing.key.time) - 6_000)) < 1, "\(firing.key) at \(firing.mediaTime)")
        }
        // The breaks where the MPD's SCTE-35 signals them, not 6 s later (a break that began before the first MPD's
        // window is not signalled to this viewer).
        let signalled = snapshot?.adBreaks.compactMap(\.startDate) ?? []
        var compared = 0
        for pod in h.session.adPods where fired.contains(where: { $0.key.podID == pod.id }) {
            let start = pod.startTime.streamDate
            guard let nearest = signalled.min(by: { abs(($0 - start).seconds) < abs(($1 - start).seconds) }),
                  abs((nearest - start).seconds) < 10 else { continue }
            #expect(abs((nearest - start).seconds) < 0.01, "\(pod.id) at \(start), signalled at \(nearest)")
            compared += 1
        }
        #expect(compared > 0, "a break the MPD signals was played")
    }

    @Test("Signaling, live, in-band: each break's SVTA2053 emsg is its ads' source, read as the engine fetches it; each break played, once")
    func signalingInband() async throws {
        try await Self.playsLive("/dash/emsg-signaling/manifest.mpd", sink: "/beacons/signaling/emsg/") {
            ManifestSignalingAdProvider(transport: $0.transport, clock: $0.clock)
        }
    }

    /// Plays 50 s of a live DASH session: what fired is what the media played called for, once each. Returns the
    /// harness, shut down, and the engine's last snapshot.
    @discardableResult
    private static func playsLive(_ path: String, sink: String, labConfiguration: LabConfiguration = LabConfiguration(),
                                  provider: (AdSessionHarness) -> any AdMetadataProvider) async throws
        -> (AdSessionHarness, EngineSnapshot?) {
        let h = try await AdSessionHarness(playing: nil, labConfiguration: labConfiguration)
        try await start(h, path, provider: provider(h))
        h.player.play()
        let start = h.player.time.seconds
        await h.play(until: start + 50)
        // What the media played called for, by the audit's rule (the verdict's yardstick), against what fired.
        let snapshot = await h.engines.all.first?.snapshot()
        let expected = h.session.expectedEvents(played: snapshot)
        try await h.shutdown()
        let fired = h.session.beacons.map(\.firing.key)
        #expect(Set(fired).count == fired.count, "nothing fired twice")
        #expect(Set(fired) == expected, "missed \(expected.subtracting(fired)), not called for \(Set(fired).subtracting(expected))")
        let hits = Self.hits(h, under: sink)
        #expect(Set(hits).count == hits.count, "nothing delivered twice: \(hits)")
        #expect(hits.contains { $0.contains("/complete") }, "an ad was played to its end in 50 s: \(hits)")
        #expect(h.session.metadataFailures == 0)
        return (h, snapshot)
    }
}
