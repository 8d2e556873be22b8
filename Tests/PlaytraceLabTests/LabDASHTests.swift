import Clocks
import Foundation
import PlaytraceCore
import PlaytraceDASH
import PlaytraceHLS
@testable import PlaytraceLab
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

    @Test("With real media, the live presentations loop the content's fragmented MP4, its times where the MPD puts each segment")
    func realLiveSegments() async throws {
        let media = ProcessInfo.processInfo.environment["PLAYTRACE_MEDIA_DIR"] ?? ".build-media"
        #expect(FileManager.default.fileExists(atPath: media + "/lab/dash/v0/init.mp4"), "scripts/generate-media writes the media")
        var configuration = LabConfiguration(liveHistorySegments: 45)
        configuration.mediaDirectory = media
        let lab = LabServer(clock: TestClock<Duration>(), configuration: configuration)
        let port = try await lab.start()
        let transport = AsyncHTTPClientTransport(clock: ContinuousClock())
        func get(_ path: String) async throws -> [UInt8] {
            let response = try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!))
            #expect(response.status == 200, "\(path)")
            return response.body
        }
        /// The decode time of a segment's (only) track fragment, in seconds of the track's timescale.
        func decodeSeconds(_ bytes: [UInt8], timescale: UInt32) throws -> Double {
            let moof = try #require(BoxWalk(bytes).boxes.first { $0.type == "moof" })
            let traf = try #require(BoxWalk(bytes, range: moof.payloadRange).boxes.first { $0.type == "traf" })
            let tfdt = try #require(BoxWalk(bytes, range: traf.payloadRange).boxes.first { $0.type == "tfdt" })
            let start = tfdt.payloadRange.lowerBound
            #expect(bytes[start] == 1, "a 64-bit tfdt")
            let ticks = bytes[(start + 4)..<(start + 12)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return Double(ticks) / Double(timescale)
        }
        for representation in ["v0", "v2", "audio"] {
            let initialization = try await get("/dash/live/\(representation)/init.mp4")
            #expect(BoxWalk(initialization).boxes.map(\.type).contains("moov"), "the real initialization segment")
            let timescale = try #require(InitializationSegment.trackTimescale(initialization))
            // Across the content's loop (segment 40 is the content's segment 0, a loop later): each segment starts
            // where the timeline puts it, the audio within a frame (1,024 samples) of it.
            for number in 37...44 {
                let seconds = try decodeSeconds(try await get("/dash/live/\(representation)/\(number).m4s"), timescale: timescale)
                #expect(abs(seconds - Double(number * 4)) < 1_024.0 / 48_000, "\(representation) \(number): \(seconds) s")
            }
        }
        // The emsg presentation: a break's first segment (37) has its event between the segment type and the index,
        // and the encoder's clock (prft) before its fragment: its date plus the producer's 1.5 s, at its first sample.
        let opening = try await get("/dash/emsg/v1/37.m4s")
        #expect(BoxWalk(opening).boxes.map(\.type) == ["styp", "emsg", "sidx", "prft", "moof", "mdat"])
        let producer = try #require(SegmentProducerTime(segment: opening))
        #expect(producer.reference.mediaTime == producer.decodeTime)
        #expect(producer.producerDate(timescale: nil) == LabConfiguration().startDate + MediaTime(seconds: 148 + 1.5))
        let messages = EventMessage.messages(inSegment: opening)
        #expect(messages.problems.isEmpty && messages.messages.map(\.schemeIdURI) == ["urn:scte:scte35:2013:bin"])
        let timescale = try #require(InitializationSegment.trackTimescale(try await get("/dash/emsg/v1/init.mp4")))
        #expect(try decodeSeconds(opening, timescale: timescale) == 148)
        #expect(!BoxWalk(try await get("/dash/emsg/v1/38.m4s")).boxes.map(\.type).contains("emsg"))
        try await transport.shutdown()
        await lab.stop()
    }
}
