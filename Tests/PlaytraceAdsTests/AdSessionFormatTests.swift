import Foundation
import PlaytraceAds
import PlaytraceCore
import PlaytraceLab
import PlaytraceNetwork
import PlaytracePlayer
import PlaytraceTestSupport
import Testing

extension AdSessionHarness {
    /// Lets the session play on for a while of clock time.
    func play(for duration: Duration) async {
        await ClockStepper(clock: clock).advance(by: duration, step: .milliseconds(100)) { await self.settle() }
    }

    /// The sink paths the played media must have hit, from the engine's own record of what it played: for each ad
    /// of the session, the automatic events whose time a played range crossed, and its impression and start when a
    /// played range overlaps the ad; a break's breakStart and breakEnd likewise.
    func expectedBeaconPaths(sinkPrefix: String, timeline: AdTimeline) async throws -> Set<String> {
        let snapshot = try #require(await engines.all.last?.snapshot())
        // The ad timeline position of a media time: media milliseconds, or the stream date at it.
        let offset: Double
        switch timeline {
        case .mediaTime: offset = 0
        case .programDateTime:
            let date = try #require(snapshot.streamDate)
            offset = date.millisecondsSince1970 - snapshot.playhead.seconds * 1000
        }
        let played = snapshot.playedRanges.ranges.map { ($0.start.seconds * 1000 + offset, $0.end.seconds * 1000 + offset) }
        func expected(_ event: TrackingEvent, from start: AdTime, to end: AdTime) -> Bool {
            guard event.event.kind == .automatic else { return false }
            let (time, start, end) = (event.startTime.milliseconds, start.milliseconds, end.milliseconds)
            if played.contains(where: { $0.0 < time && time <= $0.1 + 0.01 }) { return true }
            return event.event.firesOnEntry && played.contains { $0.0 < end && start < $0.1 }
        }
        var paths: Set<String> = []
        for pod in session.adPods {
            for event in pod.trackingEvents where expected(event, from: pod.startTime, to: pod.endTime) {
                paths.insert("\(sinkPrefix)/\(pod.id)/-/\(event.event.rawValue)")
            }
            for ad in pod.ads {
                // The lab names each ad's sink path after its place in the break (ad-1, ad-2…).
                let name = ad.trackingEvents.first?.signalingUrls.first.flatMap { URL(string: $0)?.pathComponents.dropLast().last } ?? ad.id
                for event in ad.trackingEvents where expected(event, from: ad.startTime, to: ad.endTime) {
                    paths.insert("\(sinkPrefix)/\(pod.id)/\(name)/\(event.event.rawValue)")
                }
            }
        }
        return paths
    }
}

/// Full sessions in both formats, on-demand and live, against the lab's SSAI endpoints: the sink gets every beacon
/// the played media crossed exactly once, and nothing else.
@Suite("Ad sessions: Harmonic and MediaTailor, on-demand and live", .serialized)
@MainActor
struct AdSessionFormatTests {
    private func hitPaths(_ h: AdSessionHarness, under prefix: String) -> [String] {
        h.lab.beacons.accepted(under: prefix).map(\.path)
    }

    @Test("MediaTailor on demand: session POST, tracking fetched once, every automatic beacon and break event once, no click-through, no about:blank")
    func mediaTailorVOD() async throws {
        let h = try await AdSessionHarness(playing: nil)
        let provider = MediaTailorAdProvider(transport: h.transport, adsParams: ["viewer": "lab"],
                                             manifestParams: ["origin": "lab"], clock: h.clock)
        let url = URL(string: "\(h.base)/ssai/mediatailor/v1/session/lab/origin/vod/master.m3u8")!
        let info = try #require(await h.session.start(mediaUrl: url, provider: provider))
        #expect(info.obtainedBy == "session POST")
        #expect(info.manifestUrl.absoluteString == "\(h.base)/ssai/mediatailor/v1/master/lab/origin/vod/master.m3u8?aws.sessionId=vod-0.1&origin=lab")
        #expect(info.adTrackingMetadataUrl.absoluteString == "\(h.base)/ssai/mediatailor/v1/tracking/lab/origin/vod-0.1?origin=lab")
        #expect(h.session.timeline == .mediaTime && h.session.adPods.map(\.id) == ["break-1"])
        await h.makePlayer(url: info.manifestUrl)
        h.player.play()
        await h.play(until: 39)
        await h.play(for: .seconds(5))
        try await h.shutdown()

        let tracking = h.lab.requests.all.filter { $0.path.contains("/v1/tracking/") }
        #expect(tracking.count == 1, "on demand: the tracking is fetched once")
        let hits = hitPaths(h, under: "/beacons/mediatailor/")
        var expected = ["/beacons/mediatailor/break-1/-/breakStart", "/beacons/mediatailor/break-1/-/breakEnd"]
        expected += ["ad-1", "ad-2"].flatMap { ad in AdFixtures.automaticNames.map { "/beacons/mediatailor/break-1/\(ad)/\($0)" } }
        #expect(hits.sorted() == expected.sorted(), "\(hits)")
        #expect(h.session.beacons.allSatisfy { $0.lateness <= .milliseconds(1) })
    }

    @Test("Harmonic live: metadata polled all along, breaks and ads appearing as the stream advances; every crossed beacon once")
    func harmonicLive() async throws {
        let h = try await AdSessionHarness(playing: nil)
        h.session.metadataUpdateInterval = .seconds(2)
        let provider = HarmonicAdProvider(transport: h.transport, clock: h.clock)
        let info = try #require(await h.session.start(mediaUrl: URL(string: "\(h.base)/ssai/harmonic/live/master.m3u8")!,
                                                      provider: provider))
        await h.makePlayer(url: info.manifestUrl)
        h.player.play()
        await h.play(for: .seconds(70))
        h.session.stop()
        let expected = try await h.expectedBeaconPaths(sinkPrefix: "/beacons/harmonic", timeline: .programDateTime)
        try await h.shutdown()
        let hits = hitPaths(h, under: "/beacons/harmonic/")
        #expect(Set(hits).count == hits.count, "no beacon twice: \(hits)")
        #expect(Set(hits) == expected, "missing \(expected.subtracting(hits)), extra \(Set(hits).subtracting(expected))")
        #expect(expected.filter { $0.hasSuffix("/complete") }.count >= 3, "at least one whole break was played")
        #expect(h.session.metadataAttempts >= 30, "polled every 2 s, breaks included")
        let late = h.session.beacons.filter { $0.lateness > .milliseconds(1) }
        #expect(late.isEmpty, "\(late.map { "\($0.firing.key) \($0.firing.cause) \($0.lateness)" })")
    }

    @Test("MediaTailor live: tracking fetched every target duration, breaks included; every crossed beacon once")
    func mediaTailorLive() async throws {
        let h = try await AdSessionHarness(playing: nil)
        let provider = MediaTailorAdProvider(transport: h.transport, clock: h.clock)
        let url = URL(string: "\(h.base)/ssai/mediatailor/v1/session/lab/origin/live/master.m3u8")!
        let info = try #require(await h.session.start(mediaUrl: url, provider: provider))
        await h.makePlayer(url: info.manifestUrl)
        h.player.play()
        await h.play(for: .seconds(70))
        h.session.stop()
        let expected = try await h.expectedBeaconPaths(sinkPrefix: "/beacons/mediatailor", timeline: .mediaTime)
        try await h.shutdown()
        let hits = hitPaths(h, under: "/beacons/mediatailor/")
        #expect(Set(hits).count == hits.count, "no beacon twice: \(hits)")
        #expect(Set(hits) == expected, "missing \(expected.subtracting(hits)), extra \(Set(hits).subtracting(expected))")
        #expect(expected.filter { $0.hasSuffix("/complete") }.count >= 3, "at least one whole break was played")
        let tracking = h.lab.requests.all.filter { $0.path.contains("/v1/tracking/") }.count
        #expect((16...20).contains(tracking), "every 4 s target duration for 70 s: \(tracking)")
        #expect(!hits.contains { $0.contains("click-through") })
    }
}
