import Foundation
import PlaytraceAds
import PlaytraceCore
import PlaytraceLab
import PlaytraceNetwork
import Testing

/// Harmonic's three set-up steps against the lab's SSAI stream, over loopback.
@Suite("Harmonic session set-up", .serialized)
struct HarmonicSessionSetupTests {
    @Test("A lab listening on another address names that address in its session and beacon URLs")
    func labOnAnotherAddress() async throws {
        // 127.0.0.2 is loopback too on Linux; a lab in a network namespace listens on its host's address alike.
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start(host: "127.0.0.2")
        let transport = AsyncHTTPClientTransport(clock: ContinuousClock())
        let result = await HarmonicSessionSetup(transport: transport)
            .start(mediaUrl: URL(string: "http://127.0.0.2:\(port)/ssai/harmonic/vod/master.m3u8")!)
        let metadataURL = try #require(result.info?.adTrackingMetadataUrl)
        #expect(metadataURL.host == "127.0.0.2")
        let metadata = String(decoding: try await transport.send(HTTPRequest(url: metadataURL, timeout: .seconds(5))).body,
                              as: UTF8.self)
        #expect(metadata.contains("http://127.0.0.2:\(port)/beacons/") && !metadata.contains("127.0.0.1"))
        try await transport.shutdown()
        await lab.stop()
    }

    @Test("initSession GET first; on its failure the POST; with init off, the playlist; URLs resolved against the answer's URL")
    func threeSteps() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let transport = AsyncHTTPClientTransport(clock: ContinuousClock())
        let setup = HarmonicSessionSetup(transport: transport)
        let media = URL(string: "http://127.0.0.1:\(port)/ssai/harmonic/vod/master.m3u8")!

        var result = await setup.start(mediaUrl: media)
        #expect(result.failures.isEmpty)
        #expect(result.info?.obtainedBy == "initSession GET")
        #expect(result.info?.manifestUrl.absoluteString == "http://127.0.0.1:\(port)/ssai/harmonic/vod/master.m3u8?sessid=lab-1")
        #expect(result.info?.adTrackingMetadataUrl.absoluteString == "http://127.0.0.1:\(port)/ssai/harmonic/vod/metadata?sessid=lab-1")

        lab.faults.add(LabFault(pathContains: "/ssai/harmonic/vod/master.m3u8", kind: .status(503), remaining: 1))
        result = await setup.start(mediaUrl: media)
        #expect(result.failures == [.httpStatus(step: "initSession GET", status: 503)])
        #expect(result.info?.obtainedBy == "initSession POST")
        #expect(lab.requests.all.last?.method == "POST")
        // Each initialisation is a new session, as with a real service: a rerun never replays an earlier one.
        #expect(result.info?.adTrackingMetadataUrl.absoluteString == "http://127.0.0.1:\(port)/ssai/harmonic/vod/metadata?sessid=lab-2")

        result = await setup.start(mediaUrl: media, isInitRequest: false)
        #expect(result.info?.obtainedBy == "playlist")
        #expect(result.info?.manifestUrl == media)
        #expect(result.info?.adTrackingMetadataUrl.absoluteString == "http://127.0.0.1:\(port)/ssai/harmonic/vod/metadata")
        // The metadata the set-up points at is the lab's Harmonic metadata.
        let metadata = try await transport.send(HTTPRequest(url: try #require(result.info?.adTrackingMetadataUrl), timeout: .seconds(5)))
        #expect(try HarmonicMetadataDecoder().decode(metadata.body).pods.map(\.id) == ["break-1"])

        lab.faults.add(LabFault(pathContains: "/ssai/harmonic/vod/master.m3u8", kind: .status(500), remaining: 3))
        result = await setup.start(mediaUrl: media)
        #expect(result.info == nil)
        #expect(result.failures.map(\.description) == ["initSession GET: HTTP 500", "initSession POST: HTTP 500", "playlist: HTTP 500"])
        try await transport.shutdown()
        await lab.stop()
    }

    @Test("The playlist step keeps the first URI's query (less isstream) on the media URL")
    func playlistQuery() {
        let final = URL(string: "https://cdn.example/live/pmm-abc/master.m3u8")!
        let playlist = Array("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n\n variant.m3u8?sessid=42&isstream=true \n".utf8)
        #expect(HarmonicSessionSetup.manifestURL(playlist: playlist, finalURL: final).absoluteString
            == "https://cdn.example/live/pmm-abc/master.m3u8?sessid=42")
        #expect(HarmonicSessionSetup.metadataURL(for: URL(string: "https://cdn.example/live/master.m3u8?sessid=42")!).absoluteString
            == "https://cdn.example/live/metadata?sessid=42")
        #expect(HarmonicSessionSetup.manifestURL(playlist: Array("not a playlist".utf8), finalURL: final) == final)
    }
}
