import Clocks
import Foundation
import PlaytraceAds
import PlaytraceCore
import PlaytraceHeadless
import PlaytraceLab
import PlaytraceNetwork
import PlaytracePlayer
import PlaytraceTestSupport
import Testing

/// A Player with the ad tracker playing the lab's on-demand stream through the headless engine, everything on one
/// test clock; beacons go through an Outbox to the lab's beacon sink over loopback.
@MainActor
final class AdSessionHarness {
    let clock: SteppingClock
    let lab: LabServer
    /// Whether the lab is this harness's own (stopped with it), not one shared with an earlier harness.
    private let ownsLab: Bool
    let base: String
    let transport: AsyncHTTPClientTransport
    let outbox: Outbox
    let session: AdBeaconingSession
    let engines = EngineList()
    /// The configuration of the engines the Player makes.
    var engineConfiguration = HeadlessEngine.Configuration()
    private(set) var player: Player!

    /// - Parameters:
    ///   - path: the lab path the Player plays at once; `nil` to make the Player later (``makePlayer(url:)``).
    ///   - earlier: a harness whose lab and clock this one uses (an app started again against the same servers).
    ///   - outboxPath: the outbox's file; `nil` keeps it in memory.
    init(playing path: String? = "vod/master.m3u8", after earlier: AdSessionHarness? = nil,
         outboxPath: String? = nil, labConfiguration: LabConfiguration = LabConfiguration()) async throws {
        if let earlier {
            (clock, lab, base, ownsLab) = (earlier.clock, earlier.lab, earlier.base, false)
        } else {
            clock = SteppingClock()
            lab = LabServer(clock: clock, configuration: labConfiguration)
            base = "http://127.0.0.1:\(try await lab.start())"
            ownsLab = true
        }
        transport = AsyncHTTPClientTransport(clock: clock)
        // The courier reports to the session, which needs the outbox first: a box closes the loop.
        let holder = SessionHolder()
        outbox = try Outbox(path: outboxPath, couriers: [BeaconCourier(transport: transport) { attempt in
            Task { @MainActor in holder.session?.courierReport(attempt) }
        }], clock: clock)
        await outbox.start()
        session = AdBeaconingSession(outbox: outbox, clock: clock)
        holder.session = session
        if let path { await makePlayer(url: URL(string: "\(base)/\(path)")!) }
    }

    /// Makes the Player, its item tracked by the session's ad tracker.
    func makePlayer(url: URL) async {
        let item = PlayerItem.simple(url: url, trackerAdapters: [AdTracker.adapter(configuration: session)])
        let (clock, transport, engines, configuration) = (self.clock, self.transport, self.engines, engineConfiguration)
        player = Player(item: item, clock: clock) {
            let engine = HeadlessEngine(clock: clock, transport: transport, configuration: configuration)
            engines.add(engine)
            return engine
        }
        await settle()
    }

    /// Waits until every sleeper the clock woke has run, then until the lab, the engines and the Player are
    /// quiescent: every request parked on the lab's clock or done, and the Player's handled-event count stable with
    /// no command waiting (so that each progress report of this instant reached the session before the clock moves
    /// on).
    func settle() async {
        await clock.waitForWokenSleepers()
        let engines = engines
        let settled = await waitForQuiescence(
            inFlight: {
                var count = self.session.metadataRequestsInFlight
                for engine in engines.all { count += await engine.snapshot().requestsInFlight }
                return count
            },
            parked: { self.lab.parkedResponses }, handledEvents: { self.player?.handledEventCount ?? 0 },
            hasPendingWork: { self.player?.hasPendingWork ?? false })
        if !settled { Issue.record("the player, its engines and the lab did not settle") }
    }

    func play(until seconds: Double) async {
        let player = player!
        let met = await ClockStepper(clock: clock).advance(until: { player.time.seconds >= seconds }, limit: .seconds(60),
                                                           step: .milliseconds(100)) { await self.settle() }
        #expect(met, "the playhead did not reach \(seconds) s")
    }

    func shutdown() async throws {
        await session.beaconsStored()
        _ = await outbox.drain(within: .seconds(5))
        await settle()
        await outbox.stop()
        player?.removeAllItems()
        for engine in engines.all { await engine.stop() }
        try await transport.shutdown()
        if ownsLab { await lab.stop() }
    }

    /// Ends abruptly, as a process killed with `kill -9` does: nothing is drained or flushed; what the outbox's file
    /// holds is all that remains.
    func kill() async throws {
        session.stop()
        await outbox.stop()
        player?.removeAllItems()
        for engine in engines.all { await engine.stop() }
        try await transport.shutdown()
    }
}

@Suite("Ad tracker: a session end to end", .serialized)
@MainActor
struct AdTrackerSessionTests {
    @Test("Every beacon of a break reaches the sink exactly once, on time; a pause and a mute in an ad are reported once per change")
    func vodSession() async throws {
        let h = try await AdSessionHarness()
        // The lab's stream has program-date-time: the metadata is on its dates (a break at 8.037 s of two 3.97 s ads:
        // times that the engine's 100 ms ticks never land on).
        let start = AdTime(try #require(await h.engines.all.first?.snapshot().streamDate))
        var pod = AdFixtures.pod("lab", start: start + 8_037, adDuration: 3_970)
        for index in pod.ads.indices {
            pod.ads[index].trackingEvents = pod.ads[index].trackingEvents.map { event in
                var event = event
                event.signalingUrls = ["\(h.base)/beacons/\(event.id.adID ?? "-")/\(event.event.rawValue)?cb=[CACHEBUSTING]&ap=[ADPLAYHEAD]"]
                return event
            }
        }
        pod.trackingEvents = pod.trackingEvents.map { event in
            var event = event
            event.signalingUrls = ["\(h.base)/beacons/-/\(event.event.rawValue)"]
            return event
        }
        h.session.apply(AdMetadata(pods: [pod], timeline: .programDateTime))
        h.player.play()
        await h.play(until: 10)
        // The viewer pauses for a second and mutes while the first ad plays: one pause and one mute, from the
        // Player's own state; the resume and the unmute have no event in this ad.
        h.player.pause()
        await h.play(for: .seconds(1))
        h.player.play()
        h.player.isMuted = true
        await h.play(for: .milliseconds(300))
        h.player.isMuted = false
        await h.play(for: .milliseconds(300))
        // The app reports too: a second pause, delivered; a skip the ad has no event for.
        #expect(await h.session.reportPause() == .delivered)
        #expect(await h.session.reportSkip() == .nothingToReport)
        await h.play(until: 20)
        #expect(await h.session.reportPause() == .nothingToReport, "no ad plays at 20 s")
        try await h.shutdown()

        let hits = h.lab.beacons.accepted().map(\.path)
        let expected = ["/beacons/-/breakStart", "/beacons/-/breakEnd", "/beacons/a1/pause", "/beacons/a1/pause", "/beacons/a1/mute"]
            + ["a1", "a2"].flatMap { ad in AdFixtures.automaticNames.map { "/beacons/\(ad)/\($0)" } }
        #expect(hits.sorted() == expected.sorted(), "\(hits)")
        #expect(h.session.beacons.count == expected.count)
        // The engine ends a progress report at each event's time (the session's boundaries): each beacon is handed
        // over at its crossing, not up to a 100 ms tick later.
        #expect(h.session.beacons.allSatisfy { $0.lateness <= .milliseconds(1) }, "\(h.session.beacons.map(\.lateness))")
        let states = AdFixtures.states(h.session.adPods)
        for name in AdFixtures.automaticNames { #expect(states["a1/\(name)"] == .done && states["a2/\(name)"] == .done) }
        let midpoint = h.lab.beacons.all.first { $0.path == "/beacons/a1/midpoint" }
        #expect(midpoint?.query?.hasPrefix("cb=") == true && midpoint?.query?.hasSuffix("ap=00%3A00%3A01.985") == true)
    }

    @Test("A Harmonic session set up with the lab, metadata polled: a 500 is said and polling goes on; every automatic beacon once")
    func polledHarmonicMetadata() async throws {
        let h = try await AdSessionHarness(playing: nil)
        h.lab.faults.add(LabFault(pathContains: "/ssai/harmonic/vod/metadata", kind: .status(500), remaining: 1))
        h.session.metadataUpdateInterval = .seconds(2)
        let provider = HarmonicAdProvider(transport: h.transport, clock: h.clock)
        // start() returns once the first poll (made at once) is answered: here the 500, said; nothing is listed.
        let info = try #require(await h.session.start(mediaUrl: URL(string: "\(h.base)/ssai/harmonic/vod/master.m3u8")!,
                                                      provider: provider))
        #expect(info.obtainedBy == "initSession GET")
        #expect(info.manifestUrl.absoluteString == "\(h.base)/ssai/harmonic/vod/master.m3u8?sessid=lab-1")
        #expect(h.session.latestError == "the ad metadata request failed with HTTP 500")
        #expect(h.session.adPods.isEmpty && h.session.metadataAttempts == 1)
        await h.makePlayer(url: info.manifestUrl)
        h.player.play()
        await h.play(until: 20)
        h.session.stop()
        #expect(h.session.metadataAttempts >= 5 && h.session.metadataFailures == 1)
        #expect(h.session.playerObserver.streamType == .onDemand)
        try await h.shutdown()
        let hits = h.lab.beacons.accepted().map(\.path)
        let expected = ["ad-1", "ad-2"].flatMap { ad in AdFixtures.automaticNames.map { "/beacons/harmonic/break-1/\(ad)/\($0)" } }
        #expect(hits.sorted() == expected.sorted(), "\(hits)")
        #expect(h.session.beacons.allSatisfy { $0.lateness <= .milliseconds(1) }, "\(h.session.beacons.map(\.lateness))")
        #expect(h.lab.beacons.all.allSatisfy { $0.query?.range(of: #"^cb=[0-9]{8}$"#, options: .regularExpression) != nil })
    }
}

@MainActor
final class SessionHolder {
    var session: AdBeaconingSession?
}

/// The engines the Player made, readable from any task.
final class EngineList: Sendable {
    private let list = Locked<[HeadlessEngine]>([])
    func add(_ engine: HeadlessEngine) { list.withLock { $0.append(engine) } }
    var all: [HeadlessEngine] { list.withLock { $0 } }
}
