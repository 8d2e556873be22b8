import Foundation
import PlaytraceCore
import Testing
@testable import PlaytraceHLS

@Suite("Segment URIs kept as bytes in one block per parse")
struct SegmentURITests {
    private static func parse(_ text: String) throws -> MediaPlaylist {
        guard case .media(let playlist) = try PlaylistParser().parse(text) else {
            Issue.record("not a media playlist")
            return MediaPlaylist(targetDuration: 0)
        }
        return playlist
    }

    private static let text = """
        #EXTM3U
        #EXT-X-TARGETDURATION:6
        #EXT-X-DEFINE:NAME="cdn",VALUE="https://cdn.example.com"
        #EXTINF:6,
        https://cdn.example.com/live/segment-1.ts
        #EXTINF:6,
        {$cdn}/live/segment-2.ts
        #EXTINF:6,
        vidéo/été-3.ts
        #EXTINF:6,
        a.ts
        #EXTINF:6,
        https://cdn.example.com/live/segment-1.ts
        """

    @Test("A parsed URI reads back as written, substituted, or in UTF-8, whichever way it was stored")
    func readsBack() throws {
        let playlist = try Self.parse(Self.text)
        #expect(playlist.segments.map(\.uri) == [
            "https://cdn.example.com/live/segment-1.ts", "https://cdn.example.com/live/segment-2.ts",
            "vidéo/été-3.ts", "a.ts", "https://cdn.example.com/live/segment-1.ts",
        ])
    }

    @Test("Segments compare and hash by their URI's text, not by where it is kept")
    func equalityByText() throws {
        let parsed = try Self.parse(Self.text).segments
        // The first and last were copied to different places of one block; a segment made from a String has a
        // block of its own.
        var first = parsed[0]
        var last = parsed[4]
        #expect(first.uriText == last.uriText)
        #expect(first.uriText.hashValue == last.uriText.hashValue)
        #expect(first.uriText != parsed[1].uriText)
        let built = Segment(uri: "https://cdn.example.com/live/segment-1.ts", duration: 6)
        #expect(built.uriText == first.uriText)
        #expect(Set([first.uriText, last.uriText, built.uriText, parsed[3].uriText]).count == 2)
        // Same text, different length prefixes: not equal.
        #expect(SegmentURI("a.ts") != SegmentURI("a.tsx"))
        #expect(SegmentURI("") == SegmentURI(""))
        // Value semantics: changing one segment's URI leaves the others (and the block they share) alone.
        first.uri = "changed.ts"
        #expect(first.uri == "changed.ts")
        #expect(last.uri == "https://cdn.example.com/live/segment-1.ts")
        #expect(parsed[0].uri == "https://cdn.example.com/live/segment-1.ts")
        last.uri = last.uri
        #expect(last == parsed[4])
    }

    @Test("JSON keeps the URI under `uri`, as a string, and decodes back to an equal segment")
    func codable() throws {
        let segment = try Self.parse(Self.text).segments[2]
        let data = try JSONEncoder().encode(segment)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["uri"] as? String == "vidéo/été-3.ts")
        #expect(object["uriText"] == nil)
        let decoded = try JSONDecoder().decode(Segment.self, from: data)
        #expect(decoded == segment)
        #expect(decoded.uri == segment.uri)
    }

    @Test("Byte ranges without an offset follow the previous range of the same URI, wherever the URIs are kept")
    func byteRangesFollowTheirURI() throws {
        let playlist = try Self.parse("""
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-VERSION:4
            #EXTINF:6,
            #EXT-X-BYTERANGE:1000@0
            media.mp4
            #EXTINF:6,
            #EXT-X-BYTERANGE:2000
            media.mp4
            #EXTINF:6,
            #EXT-X-BYTERANGE:500@0
            other.mp4
            #EXTINF:6,
            #EXT-X-BYTERANGE:700
            other.mp4
            """)
        #expect(playlist.segments.map { $0.resolvedByteRange?.offset } == [0, 1_000, 0, 500])
    }

    @Test("The URIs of a long playlist share one block the size of the input")
    func oneBlockPerParse() throws {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n"
        for index in 0..<5_000 { text += "#EXTINF:6,\nhttps://cdn.example.com/live/segment_\(index).ts\n" }
        let segments = try Self.parse(text).segments
        #expect(segments.count == 5_000)
        #expect(segments.indices.allSatisfy { segments[$0].uri == "https://cdn.example.com/live/segment_\($0).ts" })
        #expect(segments.allSatisfy { $0.uriText.sharesBlock(with: segments[0].uriText) })
    }
}
