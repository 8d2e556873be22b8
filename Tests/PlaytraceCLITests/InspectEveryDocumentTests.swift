import Foundation
import PlaytraceLab
import PlaytraceNetwork
import Testing

/// `inspect --json` of every document the lab serves, checked against `schemas/inspect.schema.json`. Some thirty
/// commands and schema checks back to back: `scripts/test` runs this suite apart from the real-time CLI tests, which
/// a burst of processes beside them would make late.
@Suite("inspect --json of every lab document")
struct InspectEveryDocumentTests {
    @Test("Every document the lab serves, inspected as JSON, follows schemas/inspect.schema.json and says its kind")
    func everyLabDocumentAsJSON() async throws {
        let lab = LabServer(clock: ContinuousClock())
        let port = try await lab.start()
        let base = "http://127.0.0.1:\(port)"
        // A MediaTailor session, so that its tracking JSON exists.
        let transport = AsyncHTTPClientTransport()
        var post = HTTPRequest(method: "POST", url: URL(string: "\(base)/ssai/mediatailor/v1/session/lab/origin/vod/master.m3u8")!,
                               headers: [("content-type", "application/json")])
        post.body = Array("{}".utf8)
        let session = try await transport.send(post)
        try await transport.shutdown()
        let tracking = try #require(
            (try JSONSerialization.jsonObject(with: Data(session.body)) as? [String: Any])?["trackingUrl"] as? String)
        var documents: [(path: String, kind: String)] = [
            ("/ssai/harmonic/vod/metadata", "harmonic-ad-metadata"), ("/ssai/harmonic/live/metadata", "harmonic-ad-metadata"),
            ("/ssai/harmonic/interstitials/metadata", "harmonic-ad-metadata"), (tracking, "mediatailor-tracking"),
            ("/ads/pods/mid-1.json", "hls-asset-list"), ("/vast/chain/2/mid-1.xml", "vast"), ("/vast/chain/6/mid-2.xml", "vast"),
            ("/long-live/500/index.m3u8", "media"), ("/steering/master.m3u8", "multivariant"),
        ]
        for stream in ["vod", "live", "dvr", "fmp4", "interstitials", "vast-interstitials"] {
            documents += [("/\(stream)/master.m3u8", "multivariant"), ("/\(stream)/0/index.m3u8", "media")]
        }
        for pod in ["pre", "mid-1", "mid-2", "mid-3", "mid-4", "post"] { documents.append(("/vast/pods/\(pod).xml", "vast")) }
        for stream in ["vod", "live", "dvr", "list"] { documents.append(("/dash/\(stream)/manifest.mpd", "mpd")) }
        for document in documents {
            let (run, object) = try await CLITests.inspectJSON([base + document.path])
            #expect(run.status == 0, "\(document.path): \(run.error)")
            #expect(object["kind"] as? String == document.kind, "\(document.path)")
        }
        await lab.stop()
    }
}
