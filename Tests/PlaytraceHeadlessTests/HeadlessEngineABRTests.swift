import Foundation
import PlaytraceCore
import PlaytraceHeadless
import PlaytraceLab
import PlaytracePlayer
import Testing

/// Bit rate adaptation: down at once, up only with sustained headroom and a healthy buffer.
@Suite("Headless engine: bit rate adaptation", .serialized)
struct HeadlessEngineABRTests {
    /// The variant of each segment request, in the order the lab received them.
    static func segmentVariants(_ lab: LabServer) -> [Int] {
        lab.requests.all.compactMap { request -> Int? in
            let parts = request.path.split(separator: "/")
            guard parts.count == 3, parts[0] == "vod", parts[2].hasPrefix("seg") else { return nil }
            return Int(parts[1])
        }
    }

    @Test func oneFastDownloadDoesNotJumpToTheTop() async throws {
        // Loopback is fast from the first segment on: the engine still waits for three downloads in a row with
        // headroom, and for a healthy buffer, before it leaves the lowest variant.
        let harness = try await EngineHarness(lab: LabConfiguration(vodSegmentCount: 12))
        await harness.start("/vod/master.m3u8")
        await harness.advance(until: { $0.currentVariant?.index == 2 }, limit: .seconds(30))
        let variants = Self.segmentVariants(harness.lab)
        #expect(Array(variants.prefix(3)) == [0, 0, 0], "segments by variant: \(variants)")
        #expect(variants.dropFirst(3).first == 2)
        await harness.shutdown()
    }

    @Test func aSteadyThrottleSettlesOnTheVariantThatFits() async throws {
        // 250 kB/s is 2 Mbit/s: the 1.2 Mbit/s variant fits within the margins, the 3 Mbit/s one does not.
        var configuration = HeadlessEngine.Configuration()
        configuration.forwardBufferDuration = 16
        // The primary's adaptation only: the lab's interstitial would download its assets through the same throttle.
        configuration.playsInterstitials = false
        let harness = try await EngineHarness(lab: LabConfiguration(vodSegmentCount: 24), engine: configuration)
        harness.lab.faults.add(LabFault(pathContains: ".ts", kind: .throttle(bytesPerSecond: 250_000)))
        await harness.start("/vod/master.m3u8")
        // Steps of 100 ms: the lab throttles in chunks of a tenth of a second's worth.
        let end = await harness.advance(until: { $0.status == .ended }, limit: .seconds(150))
        let variants = Self.segmentVariants(harness.lab)
        let switches = zip(variants, variants.dropFirst()).filter { $0 != $1 }.count
        #expect(switches == 1, "one switch up, then steady: \(variants)")
        #expect(variants.last == 1)
        #expect(end.stallCount == 0)
        await harness.shutdown()
    }
}
