import Foundation
import PlaytraceCore
@testable import PlaytraceHeadless
import PlaytraceLab
import PlaytracePlayer
import Testing

/// HLS content steering against the lab's steering server: the server's order is followed, a new order moves
/// playback, and a pathway that fails is left for the next one.
@Suite("Headless engine: content steering", .serialized)
struct HeadlessEngineSteeringTests {
    /// The pathway of each segment request, in the order the lab received them.
    static func segmentPathways(_ lab: LabServer) -> [String] {
        lab.requests.all.compactMap { request -> String? in
            let parts = request.path.split(separator: "/")
            guard parts.count == 4, parts[1] == "vod", parts[3].hasPrefix("seg"), request.status == 200 else { return nil }
            return String(parts[0])
        }
    }

    static func manifestRequests(_ lab: LabServer) -> [LabRequest] { lab.requests.matching("/steering/manifest.json") }

    @Test func theSteeringServersOrderIsFollowed() async throws {
        let harness = try await EngineHarness(lab: LabConfiguration(vodSegmentCount: 10))
        harness.lab.steering = LabSteering(priority: ["cdn-b", "cdn-a"])
        await harness.start("/steering/master.m3u8")
        let end = await harness.advance(until: { $0.status == .ended || $0.status == .failed }, limit: .seconds(80))
        #expect(end.status == .ended, "error: \(String(describing: end.error))")
        let pathways = Self.segmentPathways(harness.lab)
        // The playlist names cdn-a, but the manifest is asked for before the first variant is chosen.
        #expect(pathways.count == 10 && pathways.allSatisfy { $0 == "cdn-b" }, "segments by pathway: \(pathways)")
        #expect(harness.lab.requests.matching("/cdn-a/").isEmpty)
        let manifest = try #require(Self.manifestRequests(harness.lab).first)
        #expect(manifest.query?.contains("_HLS_pathway=cdn-a") == true, "query: \(manifest.query ?? "")")
        #expect(end.currentVariant?.pathwayID == "cdn-b")
        await harness.shutdown()
    }

    @Test func aNewOrderMovesPlaybackAtTheNextReload() async throws {
        var engine = HeadlessEngine.Configuration()
        engine.forwardBufferDuration = 8
        let harness = try await EngineHarness(lab: LabConfiguration(vodSegmentCount: 20), engine: engine)
        harness.lab.steering = LabSteering(priority: ["cdn-a", "cdn-b"], timeToLive: 10)
        await harness.start("/steering/master.m3u8")
        await harness.advance(by: .seconds(12))
        #expect(Self.segmentPathways(harness.lab).allSatisfy { $0 == "cdn-a" })
        let servedBefore = Self.segmentPathways(harness.lab).count
        harness.lab.steering = LabSteering(priority: ["cdn-b", "cdn-a"], timeToLive: 10)
        let end = await harness.advance(until: { $0.status == .ended || $0.status == .failed }, limit: .seconds(100))
        #expect(end.status == .ended)
        let after = Self.segmentPathways(harness.lab).dropFirst(servedBefore)
        #expect(after.last == "cdn-b" && after.drop { $0 == "cdn-a" }.allSatisfy { $0 == "cdn-b" }, "after: \(Array(after))")
        // The reload goes to the manifest's RELOAD-URI, with the pathway in use and the measured throughput.
        let reload = try #require(Self.manifestRequests(harness.lab).dropFirst().first)
        #expect(reload.query?.contains("reload=1") == true)
        #expect(reload.query?.contains("_HLS_throughput=") == true)
        let switches = await harness.recorder.events.compactMap { event -> VariantSwitchReason? in
            if case .variantSwitched(_, _, let reason) = event { return reason } else { return nil }
        }
        #expect(switches.contains(.contentSteering))
        await harness.shutdown()
    }

    @Test func aPathwayThatFailsIsLeftForTheNext() async throws {
        let harness = try await EngineHarness(lab: LabConfiguration(vodSegmentCount: 10))
        await harness.start("/steering/master.m3u8")
        await harness.advance(by: .seconds(6))
        // The CDN of the first pathway goes down mid-stream: every request to it fails from now on.
        harness.lab.faults.add(LabFault(pathContains: "/cdn-a/", kind: .status(503)))
        let end = await harness.advance(until: { $0.status == .ended || $0.status == .failed }, limit: .seconds(80))
        #expect(end.status == .ended, "error: \(String(describing: end.error))")
        #expect(end.gaps.isEmpty && end.stallCount == 0)
        // One failed resource (a 503 is asked once more) moves the whole pathway aside: cdn-a's other variants are
        // not tried one by one.
        let failed = harness.lab.requests.matching("/cdn-a/").filter { $0.status == 503 }
        #expect(Set(failed.map(\.path)).count == 1 && failed.count == 2, "\(failed.map(\.path))")
        #expect(Self.segmentPathways(harness.lab).last == "cdn-b")
        await harness.shutdown()
    }

    @Test func aSteeringServerThatDoesNotAnswerDelaysStartupByAPlaylistDeadlineAtMost() async throws {
        let harness = try await EngineHarness(lab: LabConfiguration(vodSegmentCount: 10))
        harness.lab.faults.add(LabFault(pathContains: "/steering/manifest.json", kind: .delay(milliseconds: 60_000)))
        await harness.start("/steering/master.m3u8")
        let started = await harness.advance(until: { $0.startupTime != nil }, limit: .seconds(10))
        let startup = try #require(started.startupTime)
        #expect(startup >= .seconds(3) && startup < .seconds(4), "startup \(startup)")
        #expect(Self.segmentPathways(harness.lab).first == "cdn-a", "the playlist's PATHWAY-ID")
        let warnings = await harness.recorder.events.compactMap { event -> EngineError? in
            if case .error(let error) = event { return error } else { return nil }
        }
        #expect(warnings.contains { $0.url?.contains("manifest.json") == true && $0.message.hasSuffix("the pathways keep their order") })
        await harness.shutdown()
    }

    @Test func aManifestThatCannotBeReadKeepsTheOrderAndIsReported() throws {
        #expect(throws: SteeringManifest.Problem.notJSON) { try SteeringManifest(json: Array("[1]".utf8)) }
        #expect(throws: SteeringManifest.Problem.unsupportedVersion(2)) {
            try SteeringManifest(json: Array(#"{"VERSION":2,"PATHWAY-PRIORITY":["a"]}"#.utf8))
        }
        #expect(throws: SteeringManifest.Problem.noPathwayPriority) {
            try SteeringManifest(json: Array(#"{"VERSION":1,"PATHWAY-PRIORITY":["a","b c"]}"#.utf8))
        }
        let manifest = try SteeringManifest(json: Array(#"{"VERSION":1,"PATHWAY-PRIORITY":["b","a"],"PATHWAY-CLONES":[{}]}"#.utf8))
        #expect(manifest.timeToLive == .seconds(300) && manifest.cloneCount == 1 && manifest.reloadURI == nil)
        var steering = PathwaySteering(variants: [
            VariantInfo(index: 0, bandwidth: 1, url: "a0", pathwayID: "a"), VariantInfo(index: 1, bandwidth: 1, url: "b0", pathwayID: "b"),
            VariantInfo(index: 2, bandwidth: 1, url: "c0", pathwayID: "c"),
        ], initial: "a")
        #expect(steering.priority == ["a", "b", "c"])
        let moved = steering.apply(manifest)
        #expect(moved)
        #expect(steering.priority == ["b", "a", "c"], "pathways the manifest leaves out keep their place after it")
    }
}
