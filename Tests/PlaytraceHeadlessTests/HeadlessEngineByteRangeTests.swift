import Foundation
import PlaytraceCore
import PlaytraceHeadless
import PlaytraceLab
import PlaytraceNetwork
import PlaytracePlayer
import Testing

@Suite("Headless engine: byte ranges, initialization sections and keys", .serialized)
struct HeadlessEngineByteRangeTests {
    @Test func fetchesSegmentsByRangeWithTheirInitializationSectionAndKey() async throws {
        let harness = try await EngineHarness(lab: LabConfiguration(vodSegmentCount: 5))
        await harness.engine.setVariantLimits(VariantLimits(maximumBandwidth: 400_000))
        await harness.start("/fmp4/master.m3u8")
        let end = await harness.advance(until: { $0.status == .ended }, limit: .seconds(40))
        #expect(end.playhead == 20 && end.stallCount == 0)
        let segmentSize = 400_000 * 4 / 8
        let media = harness.lab.requests.matching("/fmp4/0/media.mp4")
        #expect(media.map(\.range) == (0..<5).map { "bytes=\($0 * segmentSize)-\(($0 + 1) * segmentSize - 1)" })
        #expect(media.allSatisfy { $0.status == 206 && $0.bytes == segmentSize })
        let initialization = harness.lab.requests.matching("/fmp4/0/init.mp4")
        #expect(initialization.count == 1 && initialization.first?.range == "bytes=0-1199")
        #expect(harness.lab.requests.matching("/fmp4/0/key.bin").count == 1)
        let kinds = await harness.recorder.events.compactMap { event -> RequestRecord.Kind? in
            if case .request(let record) = event { return record.kind } else { return nil }
        }
        #expect(kinds.filter { $0 == .initializationSection }.count == 1)
        #expect(kinds.filter { $0 == .key }.count == 1)
        #expect(kinds.firstIndex(of: .initializationSection)! < kinds.firstIndex(of: .segment)!)
        await harness.shutdown()
    }

    @Test func theLabAnswersRangeRequests() async throws {
        let lab = LabServer(clock: ContinuousClock(), configuration: LabConfiguration(vodSegmentCount: 2))
        let port = try await lab.start()
        let transport = AsyncHTTPClientTransport()
        let url = URL(string: "http://127.0.0.1:\(port)/fmp4/0/media.mp4")!
        let total = 2 * 400_000 * 4 / 8
        let part = try await transport.send(HTTPRequest(url: url, headers: [("Range", "bytes=10-19")]))
        #expect(part.status == 206 && part.body.count == 10 && part.header("content-range") == "bytes 10-19/\(total)")
        let suffix = try await transport.send(HTTPRequest(url: url, headers: [("Range", "bytes=-5")]))
        #expect(suffix.status == 206 && suffix.body.count == 5)
        let open = try await transport.send(HTTPRequest(url: url, headers: [("Range", "bytes=\(total - 3)-")]))
        #expect(open.body.count == 3)
        let beyond = try await transport.send(HTTPRequest(url: url, headers: [("Range", "bytes=\(total)-\(total + 9)")]))
        #expect(beyond.status == 416 && beyond.header("content-range") == "bytes */\(total)")
        let whole = try await transport.send(HTTPRequest(url: url))
        #expect(whole.status == 200 && whole.body.count == total)
        try await transport.shutdown()
        await lab.stop()
    }
}
