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

/// The ad tracker on a real Player: the headless engine plays the lab's on-demand stream on a test clock, the
/// session fires from the engine's progress reports, and the beacons go through an Outbox to the lab's beacon sink.
@Suite("Ad tracker: a session end to end", .serialized)
@MainActor
struct AdTrackerSessionTests {
    @Test("Every beacon of a break reaches the sink exactly once, on time; a pause in an ad is reported once per pause")
    func vodSession() async throws {
        let clock = TestClock<Duration>()
        let lab = LabServer(clock: clock)
        let port = try await lab.start()
        let base = "http://127.0.0.1:\(port)"
        let transport = AsyncHTTPClientTransport(clock: clock)
        // The courier reports to the session, which the outbox needs first: a box closes the loop.
        let holder = SessionHolder()
        let outbox = try Outbox(path: nil, couriers: [BeaconCourier(transport: transport) { attempt in
            Task { @MainActor in holder.session?.courierReport(attempt) }
        }], clock: clock)
        await outbox.start()
        let session = AdBeaconingSession(outbox: outbox, clock: clock)
        holder.session = session
        let engines = EngineList()
        let item = PlayerItem.simple(url: URL(string: "\(base)/vod/master.m3u8")!,
                                     trackerAdapters: [AdTracker.adapter(configuration: session)])
        let player = Player(item: item, clock: clock) {
            let engine = HeadlessEngine(clock: clock, transport: transport)
            engines.add(engine)
            return engine
        }
        let stepper = ClockStepper(clock: clock)
        func settle() async {
            for _ in 0..<3 {
                _ = await lab.settle(inFlight: { @Sendable in
                    var count = 0
                    for engine in engines.all { count += await engine.snapshot().requestsInFlight }
                    return count
                })
                for _ in 0..<20 { await Task.yield() }
            }
        }
        await settle()
        // The lab's stream has program-date-time: the metadata is on its dates (a break at 8 s of two 4 s ads).
        let start = try #require(await engines.all.first?.snapshot().streamDate).secondsSince1970 * 1000
        var pod = AdFixtures.pod("lab", start: start + 8_000, adDuration: 4_000)
        for index in pod.ads.indices {
            pod.ads[index].trackingEvents = pod.ads[index].trackingEvents.map { event in
                var event = event
                event.signalingUrls = ["\(base)/beacons/\(event.id.adID ?? "-")/\(event.event.rawValue)?cb=[CACHEBUSTING]&ap=[ADPLAYHEAD]"]
                return event
            }
        }
        pod.trackingEvents = pod.trackingEvents.map { event in
            var event = event
            event.signalingUrls = ["\(base)/beacons/-/\(event.event.rawValue)"]
            return event
        }
        session.apply(AdMetadata(pods: [pod], timeline: .programDateTime))
        player.play()
        _ = await stepper.advance(until: { player.time.seconds >= 10 }, limit: .seconds(60), step: .milliseconds(100)) { await settle() }
        #expect(session.report(.pause, at: start + 10_000) == 1)
        _ = await stepper.advance(until: { player.time.seconds >= 20 }, limit: .seconds(60), step: .milliseconds(100)) { await settle() }
        _ = await outbox.drain(within: .seconds(5))
        await settle()

        let hits = lab.beacons.accepted().map(\.path)
        let expected = ["/beacons/-/breakStart", "/beacons/-/breakEnd", "/beacons/a1/pause"]
            + ["a1", "a2"].flatMap { ad in AdFixtures.automaticNames.map { "/beacons/\(ad)/\($0)" } }
        #expect(hits.sorted() == expected.sorted(), "\(hits)")
        #expect(session.beacons.count == expected.count)
        #expect(session.beacons.allSatisfy { $0.lateness < .milliseconds(100) }, "a 100 ms tick at most")
        let states = AdFixtures.states(session.adPods)
        for name in AdFixtures.automaticNames { #expect(states["a1/\(name)"] == .done && states["a2/\(name)"] == .done) }
        #expect(lab.beacons.all.first { $0.path == "/beacons/a1/midpoint" }?.query?.hasPrefix("cb=") == true)
        #expect(lab.beacons.all.first { $0.path == "/beacons/a1/midpoint" }?.query?.hasSuffix("ap=00%3A00%3A02.000") == true)
        await outbox.stop()
        player.removeAllItems()
        for engine in engines.all { await engine.stop() }
        try await transport.shutdown()
        await lab.stop()
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
