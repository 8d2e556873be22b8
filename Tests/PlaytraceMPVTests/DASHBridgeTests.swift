#if MPV
import Clocks
import Foundation
import PlaytraceCore
import PlaytraceDASHPlayback
import PlaytraceHLS
import PlaytraceLab
@testable import PlaytraceMPV
import PlaytraceNetwork
import Testing

/// A live MPD written as HLS playlists for libmpv: private files, segments at the origin, a window that moves with
/// the server's clock.
@Suite("DASH bridge: an MPD as HLS playlists for libmpv")
struct DASHBridgeTests {
    @Test("The lab's live MPD: a variant per rung, the audio set as a rendition, absolute segment URLs, private files, a window that moves")
    func writesTheLiveMPD() async throws {
        let clock = TestClock<Duration>()
        let lab = LabServer(clock: clock)
        let port = try await lab.start()
        let transport = AsyncHTTPClientTransport()
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/dash/live/manifest.mpd"))
        let response = try await transport.send(HTTPRequest(url: url))
        let presentation = try DASHSession.resolve(response.body, url: response.url)
        let session = DASHSession(playlists: DASHPlaylists(presentation, base: url), manifestURL: url, fetchedAt: .zero)
        let fellBack = await session.synchroniseClock(dateHeader: nil, receivedAt: .zero, elapsed: { .zero }) { request in
            guard let answer = try? await transport.send(HTTPRequest(method: request.method, url: request.url)) else { return nil }
            return (answer.body, answer.header("Date"))
        }
        #expect(!fellBack, "the lab's UTCTiming gives the clock")
        let bridge = DASHBridge(session: session, directory: try DASHBridge.makeDirectory())
        defer { bridge.remove() }
        try bridge.write(elapsed: .zero)

        let attributes = try FileManager.default.attributesOfItem(atPath: bridge.directory.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o700, "the directory is this user's alone")
        let master = try PlaylistParser().parse(bytes: Array(try Data(contentsOf: bridge.multivariantURL)))
        guard case .multivariant(let multivariant) = master else { Issue.record("not a multivariant playlist"); return }
        #expect(multivariant.variants.map(\.bandwidth) == LabConfiguration().variants.map { $0.bandwidth + 128_000 })
        #expect(multivariant.renditions.map(\.type) == [.audio])
        let firstFile = bridge.directory.appendingPathComponent(multivariant.variants[0].uri)
        #expect(bridge.trackURL(ofFile: firstFile.absoluteString) == url.absoluteString + "#video=0")
        let fileAttributes = try FileManager.default.attributesOfItem(atPath: firstFile.path)
        #expect((fileAttributes[.posixPermissions] as? Int) == 0o600)

        func media() throws -> MediaPlaylist {
            guard case .media(let playlist) = try PlaylistParser().parse(bytes: Array(try Data(contentsOf: firstFile))) else {
                throw CancellationError()
            }
            return playlist
        }
        let first = try media()
        #expect(!first.isFinished && first.segments.count == LabConfiguration().liveWindowSegments)
        #expect(first.segments.allSatisfy { $0.uri.hasPrefix("http://127.0.0.1:\(port)/dash/live/v0/") }, "\(first.segments.map(\.uri))")
        #expect(first.segments.first?.tags.map?.uri == "http://127.0.0.1:\(port)/dash/live/v0/init.mp4")
        #expect(first.segments.allSatisfy { $0.tags.programDateTime != nil })
        // Two segments later by the server's clock (the MPD refreshed, as the engine does when it is due).
        await clock.advance(by: .seconds(8))
        let refreshed = try await transport.send(HTTPRequest(url: url))
        session.update(with: try DASHSession.resolve(refreshed.body, url: url))
        try bridge.write(elapsed: .seconds(8))
        let later = try media()
        #expect(later.mediaSequence == first.mediaSequence + 2, "\(first.mediaSequence) → \(later.mediaSequence)")
        #expect(later.segments.count == first.segments.count)
        try await transport.shutdown()
        await lab.stop()
    }
}
#endif
