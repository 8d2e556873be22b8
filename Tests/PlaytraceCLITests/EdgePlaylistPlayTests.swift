import Foundation
import PlaytraceLab
import PlaytraceTestSupport
import Testing

/// `play` and its report on playlists with numbers at the edges (issue 44): each crashed the process before (a trap
/// in `MediaTime.duration`, the report's timecodes, `BreakAnnouncer`, the byte-range request, `renumber()`).
@Suite("play survives numbers at the edges", .serialized)
struct EdgePlaylistPlayTests {
    static let playlists: [(name: String, body: String)] = [
        ("EXTINF 1e16", "#EXTINF:1e16,\nseg0.ts\n#EXTINF:4,\nseg1.ts\n"),
        ("a long but legal segment and break", "#EXT-X-CUE-OUT:900000000\n#EXTINF:900000000,\nseg0.ts\n#EXTINF:4,\nseg1.ts\n"),
        ("cue times 1e16", "#EXT-X-CUE-OUT:1e16\n#EXTINF:4,\nseg0.ts\n#EXT-X-CUE-OUT-CONT:ElapsedTime=1e16,Duration=1e16\n#EXTINF:4,\nseg1.ts\n"),
        ("sequences at Int64.max", "#EXT-X-MEDIA-SEQUENCE:9223372036854775807\n#EXT-X-DISCONTINUITY-SEQUENCE:9223372036854775807\n"
            + "#EXTINF:4,\nseg0.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:4,\nseg1.ts\n"),
        ("byte ranges past 2^63", "#EXT-X-BYTERANGE:9223372036854775807@0\n#EXTINF:4,\nseg0.ts\n"
            + "#EXT-X-BYTERANGE:9223372036854775807\n#EXTINF:4,\nseg0.ts\n#EXTINF:4,\nseg1.ts\n"),
        ("dates past year 9999", "#EXT-X-PROGRAM-DATE-TIME:9999-12-31T23:59:58Z\n#EXTINF:4,\nseg0.ts\n"
            + "#EXT-X-DATERANGE:ID=\"x\",START-DATE=\"9999-12-31T23:59:59Z\",DURATION=100\n#EXTINF:4,\nseg1.ts\n"),
    ]

    /// Wall time, for a reason: each command plays in real time (up to 2 s of the lab's stream).
    @Test("Each edge playlist plays or fails with a verdict, and its report and summary are written", arguments: playlists.indices)
    func edgePlaylist(index: Int) async throws {
        let (name, segments) = Self.playlists[index]
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let body = "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:4\n\(segments)#EXT-X-ENDLIST\n"
        lab.faults.add(LabFault(pathContains: "/vod/0/index.m3u8", kind: .body(body)))
        let summary = CLITests.temporaryPath("edge.json"), report = CLITests.temporaryPath("edge") + ".html"
        defer { for path in [summary, report] { try? FileManager.default.removeItem(atPath: path) } }
        let run = try await CLITests.run(["play", "http://127.0.0.1:\(port)/vod/0/index.m3u8", "--duration", "2", "--plain",
                                          "--summary-json", summary, "--report", report])
        await lab.stop()
        #expect(run.status == 0 || run.status == 1, "\(name): status \(run.status)\n\(run.error)")
        #expect(!run.error.contains("Fatal error") && !run.error.contains("Backtrace"), "\(name): \(run.error)")
        #expect(run.output.contains("verdict: "), "\(name): \(run.output)")
        #expect(FileManager.default.fileExists(atPath: summary) && FileManager.default.fileExists(atPath: report), "\(name)")
        let errors = try await JSONSchemaCheck.errors(in: summary, schema: "session-summary")
        #expect(errors.isEmpty, "\(name): \(errors)")
    }
}
