import Clocks
import Foundation
import PlaytraceCore
import PlaytraceDASH
import PlaytraceHLS
import PlaytraceLab
import PlaytraceNetwork
import Testing

/// The lab's MPEG-DASH presentations, read as a player reads them: every segment the MPD names exists, and a live
/// MPD's window, at the clock its UTCTiming gives, is the HLS live playlist's.
@Suite("The lab's DASH presentations", .serialized)
struct LabDASHTests {
    static func resolve(_ transport: AsyncHTTPClientTransport, _ url: URL) async throws -> ResolvedPresentation {
        let response = try await transport.send(HTTPRequest(url: url))
        #expect(response.status == 200 && response.header("content-type") == "application/dash+xml")
        return ResolvedPresentation(try MPDParser().parse(Data(response.body)), url: url)
    }

    @Test("On demand: three periods (content, ad, content), every segment and init named by the MPD is served")
    func onDemand() async throws {
        let lab = LabServer(clock: TestClock<Duration>())
        let port = try await lab.start()
        let transport = AsyncHTTPClientTransport(clock: ContinuousClock())
        for stream in ["vod", "list"] {
            let presentation = try await Self.resolve(transport, URL(string: "http://127.0.0.1:\(port)/dash/\(stream)/manifest.mpd")!)
            #expect(presentation.problems.isEmpty, "\(presentation.problems)")
            #expect(presentation.duration == .seconds(LabConfiguration().vodSegmentCount * LabConfiguration().segmentDuration))
            var urls: [URL] = []
            for period in presentation.periods {
                for representation in period.adaptationSets.flatMap(\.representations) {
                    let count = try #require(representation.segments.count)
                    for index in 0..<count { urls += try #require(representation.segments.segment(at: index)).urls(at: representation.baseURLs).prefix(1) }
                    urls += try #require(representation.segments.initialization).urls(at: representation.baseURLs).prefix(1)
                    // One past the end of the content is not there.
                    if stream == "vod", period.id == "content-2", let last = representation.segments.segment(at: count - 1) {
                        var next = last
                        next.path = "\(representation.id)/\(last.number + 1).m4s"
                        let missing = try await transport.send(HTTPRequest(url: try #require(next.urls(at: representation.baseURLs).first)))
                        #expect(missing.status == 404, "\(next)")
                    }
                }
            }
            if stream == "vod" {
                #expect(presentation.periods.map(\.id) == ["content-1", "content-1_1", "content-2"])
                #expect(presentation.periods[1].adaptationSets[0].representations[0].baseURLs.first?.url.absoluteString.hasSuffix("/dash/ads/") == true)
                #expect(presentation.periods[1].eventStreams.first?.events.first.map { event -> Bool in
                    if case .binary(let bytes) = event.content, let section = try? SpliceInfoSection(bytes: bytes),
                       case .spliceInsert(let insert) = section.command { return insert.isOutOfNetwork }
                    return false
                } == true, "the ad period's first event is a splice out of the network")
            }
            for url in urls {
                let response = try await transport.send(HTTPRequest(url: url))
                #expect(response.status == 200 && !response.body.isEmpty, "\(url)")
            }
        }
        try await transport.shutdown()
        await lab.stop()
    }

    @Test("Live: at the server's clock (UTCTiming), the newest available segment is the HLS live playlist's last; it moves with the clock")
    func live() async throws {
        let clock = TestClock<Duration>()
        let lab = LabServer(clock: clock)
        let port = try await lab.start()
        let transport = AsyncHTTPClientTransport(clock: ContinuousClock())
        let base = "http://127.0.0.1:\(port)"
        await clock.advance(by: .seconds(30))
        for _ in 0..<2 {
            let presentation = try await Self.resolve(transport, URL(string: "\(base)/dash/live/manifest.mpd")!)
            #expect(presentation.type == .dynamic && presentation.problems.isEmpty, "\(presentation.problems)")
            let timing = try #require(presentation.written.utcTimings.first)
            let request = try #require(timing.requests.first)
            let answer = try await transport.send(HTTPRequest(url: request.url))
            let now = try #require(timing.serverTime(body: answer.body, dateHeader: nil))
            let representation = try #require(presentation.periods.first?.adaptationSets.first?.representations.first)
            let range = try #require(AvailabilityWindow(presentation, at: now).available(in: representation.segments))
            let newest = try #require(representation.segments.segment(at: range.upperBound))

            let playlist = try await transport.send(HTTPRequest(url: URL(string: "\(base)/live/0/index.m3u8")!))
            guard case .media(let media) = try PlaylistParser().parse(bytes: playlist.body) else { Issue.record("not a media playlist"); return }
            let last = media.mediaSequence + media.segments.count - 1
            #expect(newest.number == Int64(last), "DASH \(newest.number), HLS \(last)")
            #expect(range.count == LabConfiguration().liveWindowSegments)
            let segment = try await transport.send(HTTPRequest(url: try #require(newest.urls(at: representation.baseURLs).first)))
            #expect(segment.status == 200)
            var future = newest
            future.path = "\(representation.id)/\(newest.number + 1).m4s"
            #expect(try await transport.send(HTTPRequest(url: try #require(future.urls(at: representation.baseURLs).first))).status == 404,
                    "the next segment is not there before it is complete")
            await clock.advance(by: .seconds(LabConfiguration().segmentDuration))
        }
        try await transport.shutdown()
        await lab.stop()
    }
}
