import Foundation
import PlaytraceAds
import PlaytraceCore
import PlaytraceLab
import PlaytraceNetwork
import PlaytracePlayer
import PlaytraceTestSupport
import Testing

extension AdSessionHarness {
    /// Sets up the lab's on-demand Harmonic session (break-1 from 8 s: ad-1 8–12 s, ad-2 12–16 s) and makes the
    /// Player for it.
    func startHarmonicVOD(interval: Duration = .seconds(2)) async throws {
        session.metadataUpdateInterval = interval
        let provider = HarmonicAdProvider(transport: transport, clock: clock)
        let info = try #require(await session.start(mediaUrl: URL(string: "\(base)/ssai/harmonic/vod/master.m3u8")!,
                                                    provider: provider))
        await makePlayer(url: info.manifestUrl)
    }

    /// Seeks and waits for the seek to complete.
    func seek(to seconds: Double) async {
        var done = false
        player.seek(.at(MediaTime(seconds: seconds))) { _ in done = true }
        let met = await ClockStepper(clock: clock).advance(until: { done && !self.player.isSeeking }, limit: .seconds(30),
                                                           step: .milliseconds(100)) { await self.settle() }
        #expect(met, "the seek to \(seconds) s did not complete")
    }

    /// The sink's Harmonic hits, as `ad/event`.
    var harmonicHits: [String] {
        lab.beacons.accepted(under: "/beacons/harmonic/break-1/").map { String($0.path.dropFirst("/beacons/harmonic/break-1/".count)) }
    }
}

/// What viewers do, against the lab's on-demand Harmonic session: seeks, rewinds, stalls, late metadata, a beacon
/// server that is down for a while.
@Suite("Ad sessions: viewers and failures", .serialized)
@MainActor
struct AdViewerTests {
    private let automatic = AdFixtures.automaticNames

    @Test("A seek over the break fires nothing of it")
    func seekOverBreak() async throws {
        let h = try await AdSessionHarness(playing: nil)
        try await h.startHarmonicVOD()
        h.player.play()
        await h.play(until: 2)
        await h.seek(to: 20)
        await h.play(until: 24)
        try await h.shutdown()
        #expect(h.harmonicHits.isEmpty, "\(h.harmonicHits)")
        #expect(h.session.beacons.isEmpty)
    }

    @Test("A seek into the middle of an ad fires its impression and start, then only what is crossed")
    func seekIntoAd() async throws {
        let h = try await AdSessionHarness(playing: nil)
        try await h.startHarmonicVOD()
        h.player.play()
        await h.play(until: 2)
        await h.seek(to: 14.5)
        await h.play(until: 18)
        try await h.shutdown()
        #expect(h.harmonicHits.sorted() == ["ad-2/complete", "ad-2/impression", "ad-2/start", "ad-2/thirdQuartile"],
                "\(h.harmonicHits)")
        let entered = h.session.beacons.filter { $0.firing.cause == .entered }.map(\.firing.event)
        #expect(Set(entered) == [.impression, .start])
    }

    @Test("A rewind into a played ad sends its rewind event once and never an automatic event again")
    func rewindIntoPlayedAd() async throws {
        let h = try await AdSessionHarness(playing: nil)
        try await h.startHarmonicVOD()
        h.player.play()
        await h.play(until: 13)
        await h.seek(to: 9)
        await h.play(until: 17)
        try await h.shutdown()
        let expected = automatic.map { "ad-1/\($0)" } + automatic.map { "ad-2/\($0)" } + ["ad-1/rewind"]
        #expect(h.harmonicHits.sorted() == expected.sorted(), "\(h.harmonicHits)")
    }

    @Test("A stall at the start of an ad: its events fire once each, at their crossings, after playback resumes")
    func stallAcrossEvents() async throws {
        let h = try await AdSessionHarness(playing: nil)
        // The segment of the second ad, asked for at once, arrives after 15 s: playback stalls at 12 s, where ad-1
        // completes and ad-2 starts, for about 3 s.
        h.lab.faults.add(LabFault(pathContains: "seg3.ts", kind: .delay(milliseconds: 15_000)))
        try await h.startHarmonicVOD()
        h.player.play()
        await h.play(until: 19)
        let stalls = h.player.properties.metrics.stallCount
        try await h.shutdown()
        #expect(stalls >= 1, "the delayed segment made playback stall")
        let expected = automatic.map { "ad-1/\($0)" } + automatic.map { "ad-2/\($0)" }
        #expect(h.harmonicHits.sorted() == expected.sorted(), "\(h.harmonicHits)")
        #expect(h.session.beacons.allSatisfy { $0.lateness <= .milliseconds(1) }, "\(h.session.beacons.map(\.lateness))")
    }

    @Test("Metadata that arrives after the break started: what was played is caught up once, the rest fires live")
    func lateMetadata() async throws {
        let h = try await AdSessionHarness(playing: nil)
        // The first six polls (every 2 s) fail: the metadata arrives at about 12 s, in the middle of the break.
        h.lab.faults.add(LabFault(pathContains: "/ssai/harmonic/vod/metadata", kind: .status(503), remaining: 6))
        try await h.startHarmonicVOD()
        #expect(h.session.adPods.isEmpty)
        h.player.play()
        await h.play(until: 17)
        try await h.shutdown()
        let expected = automatic.map { "ad-1/\($0)" } + automatic.map { "ad-2/\($0)" }
        #expect(h.harmonicHits.sorted() == expected.sorted(), "\(h.harmonicHits)")
        let caughtUp = h.session.beacons.filter { $0.firing.cause == .caughtUp }
        #expect(!caughtUp.isEmpty && caughtUp.allSatisfy { $0.firing.key.adID == "ad-1" || $0.firing.event == .impression || $0.firing.event == .start })
        #expect(h.session.metadataFailures == 6)
    }

    @Test("The beacon server down, then up: every beacon is retried until delivered, once, and ends done")
    func beaconServerDown() async throws {
        let h = try await AdSessionHarness(playing: nil)
        // Five failures in a row (within each URL's budget of eight attempts): the outbox backs off and retries.
        h.lab.faults.add(LabFault(pathContains: "/beacons/", kind: .status(503), remaining: 5))
        try await h.startHarmonicVOD()
        h.player.play()
        await h.play(until: 17)
        await h.play(for: .seconds(20))
        try await h.shutdown()
        let expected = automatic.map { "ad-1/\($0)" } + automatic.map { "ad-2/\($0)" }
        #expect(h.harmonicHits.sorted() == expected.sorted(), "\(h.harmonicHits)")
        #expect(h.lab.beacons.all.filter { $0.status == 503 }.count == 5)
        #expect(h.session.adPods.flatMap(\.allTrackingEvents).filter { $0.event.kind == .automatic }
            .allSatisfy { $0.reportingState == .done })
    }
}

/// A session killed mid-break and started again: nothing fired twice, nothing lost.
@Suite("Ad sessions: resumed after a kill", .serialized)
@MainActor
struct AdResumeTests {
    @Test("Killed mid-break with a beacon waiting: the next run marks what was sent, delivers what waited, fires the rest once")
    func killedMidBreak() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ads-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let first = try await AdSessionHarness(playing: nil, outboxPath: path)
        // The session read from the playlist, both times: the lab mints a new one at every initialisation.
        first.session.isInitRequest = false
        try await first.startHarmonicVOD()
        first.player.play()
        await first.play(until: 9.5)
        // The beacon server goes down: ad-1's midpoint (10 s) is fired and waits in the outbox when the app dies.
        first.lab.faults.add(LabFault(pathContains: "/beacons/", kind: .status(503)))
        await first.play(until: 10.5)
        #expect(first.session.beacons.map(\.firing.event) == [.impression, .start, .firstQuartile, .midpoint])
        // The midpoint's attempt must have failed, and its retry been written, before the kill: killed while the
        // request is still under way, the beacon would be due at once, and the next run could deliver it before its
        // state is read. (Real time, bounded: the attempt is a real request on loopback.)
        for _ in 0..<500 where try await first.outbox.statistics().retried < 1 {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(try await first.outbox.statistics().retried >= 1, "the midpoint's failed attempt is recorded")
        try await first.kill()

        // The app starts again on the same session, resumes at 10.5 s (inside ad-1) and plays the break out. The
        // beacon server stays down until the restored states are read: the midpoint's retry is due at once, and the
        // new run's outbox could otherwise deliver it first (seen under the whole suite's load).
        let second = try await AdSessionHarness(playing: nil, after: first, outboxPath: path)
        second.session.isInitRequest = false
        try await second.startHarmonicVOD()
        #expect(second.session.restoredBeaconCount == 4)
        let states = AdFixtures.states(second.session.adPods)
        #expect(states["ad-1/impression"] == .done && states["ad-1/firstQuartile"] == .done)
        #expect(states["ad-1/midpoint"] == .connecting, "handed over, waiting in the outbox")
        first.lab.faults.clear()
        second.player.seek(.at(MediaTime(seconds: 10.5)))
        second.player.play()
        await second.play(until: 17)
        try await second.shutdown()
        await first.lab.stop()

        let hits = first.lab.beacons.accepted(under: "/beacons/harmonic/break-1/")
            .map { String($0.path.dropFirst("/beacons/harmonic/break-1/".count)) }
        let expected = AdFixtures.automaticNames.map { "ad-1/\($0)" } + AdFixtures.automaticNames.map { "ad-2/\($0)" }
        #expect(hits.sorted() == expected.sorted(), "each once across both runs: \(hits)")
        #expect(second.session.beacons.allSatisfy { $0.firing.key.adID == "ad-2" || $0.firing.event == .thirdQuartile
            || $0.firing.event == .complete }, "the second run fired none of what the first had")
        let finalStates = AdFixtures.states(second.session.adPods)
        #expect(AdFixtures.automaticNames.allSatisfy { finalStates["ad-1/\($0)"] == .done && finalStates["ad-2/\($0)"] == .done })
    }
}

@Suite("Ad sessions: scripted viewers and refused URLs", .serialized)
@MainActor
struct AdScriptedViewerTests {
    @Test("A scripted viewer pauses, mutes and unmutes in an ad: one beacon per change, at the script's times")
    func scriptedViewer() async throws {
        let h = try await AdSessionHarness(playing: nil)
        try await h.startHarmonicVOD()
        let runner = ViewerScriptRunner(script: try ViewerScript(parsing: "at 9.5 pause 1; at 10 mute; at 10.3 unmute; at 13 stop"),
                                        clock: h.clock)
        let item = PlayerItem.simple(url: try #require(h.session.sessionInfo?.manifestUrl), trackerAdapters: [
            AdTracker.adapter(configuration: h.session), ViewerScriptTracker.adapter(configuration: runner),
        ])
        h.player.removeAllItems()
        h.player.append(item)
        h.player.play()
        let stopped = await ClockStepper(clock: h.clock).advance(until: { runner.stopRequested }, limit: .seconds(60),
                                                                 step: .milliseconds(100)) { await h.settle() }
        #expect(stopped)
        try await h.shutdown()
        let actions = h.harmonicHits.filter { !AdFixtures.automaticNames.contains(String($0.split(separator: "/")[1])) }
        #expect(actions.sorted() == ["ad-1/mute", "ad-1/pause", "ad-1/resume", "ad-1/unmute"], "\(h.harmonicHits)")
        let reported = h.session.beacons.filter { $0.firing.cause == .playerAction }
        #expect(reported.map { $0.firing.mediaTime.milliseconds.rounded() - 1_767_225_600_000 } == [9_500, 9_500, 10_000, 10_300])
    }

    @Test("ftp: and javascript: beacon URLs are refused and said, not failures: the event's http URL is sent and the event is done; URLs past the limit are counted")
    func refusedSchemes() async throws {
        let h = try await AdSessionHarness()
        let start = AdTime(try #require(await h.engines.all.first?.snapshot().streamDate))
        var pod = AdFixtures.pod("p", start: start + 2_000, adDuration: 2_000, ads: 1)
        for index in pod.ads[0].trackingEvents.indices where pod.ads[0].trackingEvents[index].event == .impression {
            pod.ads[0].trackingEvents[index].signalingUrls = ["ftp://tracker.example/imp", "javascript:alert(1)",
                                                              "\(h.base)/beacons/p/a1/impression", "about:blank"]
            pod.ads[0].trackingEvents[index].urlsOverLimit = 3
        }
        for index in pod.ads[0].trackingEvents.indices where pod.ads[0].trackingEvents[index].event != .impression {
            pod.ads[0].trackingEvents[index].signalingUrls = []
        }
        pod.trackingEvents = []
        h.session.apply(AdMetadata(pods: [pod], timeline: .programDateTime))
        h.player.play()
        await h.play(until: 3)
        try await h.shutdown()
        #expect(h.lab.beacons.all.map(\.path) == ["/beacons/p/a1/impression"], "only the http URL was requested")
        let record = try #require(h.session.beacons.first { $0.firing.event == .impression })
        #expect(record.urls.map(\.outcome) == [.refused("the ftp: scheme is never requested"),
                                               .refused("the javascript: scheme is never requested"),
                                               record.urls[2].outcome, .skipped])
        if case .delivered = record.urls[2].outcome {} else { Issue.record("the http URL: \(String(describing: record.urls[2].outcome))") }
        #expect(record.state == .done && record.urlsOverLimit == 3)
        #expect(AdFixtures.states(h.session.adPods)["a1/impression"] == .done)
        #expect(h.session.logMessages.contains { !$0.isError && $0.message.contains("javascript: scheme") })
        #expect(h.session.logMessages.contains { $0.isError && $0.message.contains("3 URL(s) past the limit") })
    }
}

@Suite("Ad sessions: malformed metadata", .serialized)
@MainActor
struct AdMalformedMetadataTests {
    @Test("Invalid JSON, a 5 MB body, then a response with a broken break: each said, the good break still beaconed")
    func malformed() async throws {
        let h = try await AdSessionHarness(playing: nil)
        // The real metadata with a broken break before the good one (a start time that is text, no ads).
        let good = try await h.transport.send(HTTPRequest(url: URL(string: "\(h.base)/ssai/harmonic/vod/metadata")!, timeout: .seconds(5)))
        var root = try #require(JSONSerialization.jsonObject(with: Data(good.body)) as? [String: Any])
        var breaks = try #require(root["adBreaks"] as? [[String: Any]])
        breaks.insert(["id": "broken", "startTime": "soon", "duration": 4_000], at: 0)
        root["adBreaks"] = breaks
        let partlyBroken = String(decoding: try JSONSerialization.data(withJSONObject: root), as: UTF8.self)
        let path = "/ssai/harmonic/vod/metadata"
        h.lab.faults.add(LabFault(pathContains: path, kind: .body("{\"adBreaks\": [ {"), remaining: 1))
        h.lab.faults.add(LabFault(pathContains: path, kind: .body(String(repeating: " ", count: 5 << 20)), remaining: 1))
        h.lab.faults.add(LabFault(pathContains: path, kind: .body(partlyBroken)))
        try await h.startHarmonicVOD(interval: .seconds(2))
        h.player.play()
        await h.play(until: 17)
        try await h.shutdown()

        let errors = h.session.logMessages.filter(\.isError).map(\.message)
        #expect(errors.contains { $0.hasPrefix("ad metadata is not valid JSON") }, "\(errors)")
        #expect(errors.contains("ad metadata of 4194305 bytes is over the limit of 4194304 bytes"), "\(errors)")
        #expect(errors.contains { $0.hasPrefix("ad metadata: ") && $0.contains("adBreaks[0]") }, "the broken break, named: \(errors)")
        #expect(errors.filter { $0.contains("adBreaks[0]") }.count == 2, "said when it appeared, not at every poll: \(errors)")
        #expect(h.session.adPods.map(\.id) == ["break-1"])
        let expected = AdFixtures.automaticNames.map { "ad-1/\($0)" } + AdFixtures.automaticNames.map { "ad-2/\($0)" }
        #expect(h.harmonicHits.sorted() == expected.sorted(), "\(h.harmonicHits)")
    }
}

@Suite("Ad sessions: late metadata on another timeline", .serialized)
@MainActor
struct AdLateTimelineTests {
    @Test("MediaTailor tracking that arrives mid-break (offsets, not dates): what was played before it is caught up once")
    func lateMediaTailor() async throws {
        let h = try await AdSessionHarness(playing: nil)
        // Four failures: attempts at 0, 1, 3 and 7 s fail, the one at 15 s succeeds — near the end of the 8–16 s break.
        h.lab.faults.add(LabFault(pathContains: "/v1/tracking/", kind: .status(503), remaining: 4))
        let provider = MediaTailorAdProvider(transport: h.transport, clock: h.clock)
        let url = URL(string: "\(h.base)/ssai/mediatailor/v1/session/lab/origin/vod/master.m3u8")!
        let info = try #require(await h.session.start(mediaUrl: url, provider: provider))
        await h.makePlayer(url: info.manifestUrl)
        h.player.play()
        await h.play(until: 18)
        try await h.shutdown()
        let hits = h.lab.beacons.accepted(under: "/beacons/mediatailor/").map(\.path)
        var expected = ["/beacons/mediatailor/break-1/-/breakStart", "/beacons/mediatailor/break-1/-/breakEnd"]
        expected += ["ad-1", "ad-2"].flatMap { ad in AdFixtures.automaticNames.map { "/beacons/mediatailor/break-1/\(ad)/\($0)" } }
        #expect(hits.sorted() == expected.sorted(), "\(hits)")
        #expect(h.session.beacons.filter { $0.firing.cause == .caughtUp }.count >= 10)
        #expect(h.session.metadataFailures == 4)
    }
}
