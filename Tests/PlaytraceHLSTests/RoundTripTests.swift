import Testing
@testable import PlaytraceHLS

@Suite("Writer round trips")
struct RoundTripTests {
    static let playlists: [String] = [
        MultivariantParsingTests.text,
        AdSignallingTests.text,
        """
        #EXTM3U
        #EXT-X-TARGETDURATION:4
        #EXT-X-VERSION:9
        #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.0
        #EXT-X-PART-INF:PART-TARGET=0.5
        #EXT-X-MEDIA-SEQUENCE:10
        #EXT-X-DISCONTINUITY-SEQUENCE:2
        #EXT-X-SKIP:SKIPPED-SEGMENTS=2
        #EXT-X-MAP:URI="init.mp4"
        #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://k",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
        #EXT-X-BITRATE:800
        #EXT-X-PART:DURATION=0.5,URI="p0.mp4",INDEPENDENT=YES
        #EXTINF:4.004,title, with comma
        #EXT-X-BYTERANGE:500@100
        s.mp4
        #EXT-X-DISCONTINUITY
        #EXT-X-GAP
        #EXT-X-VENDOR:x
        #EXTINF:1e1,
        t.mp4
        #EXT-X-CUE-IN
        #EXT-X-PRELOAD-HINT:TYPE=MAP,URI="next-init.mp4"
        #EXT-X-RENDITION-REPORT:URI="r.m3u8",LAST-MSN=13
        """,
    ]

    @Test(arguments: playlists)
    func parseWriteParseIsStable(text: String) throws {
        let parser = PlaylistParser()
        let first = try parser.parse(text)
        let written = PlaylistWriter().write(first)
        let second = try parser.parse(written)
        #expect(first == second)
        #expect(PlaylistWriter().write(second) == written, "writing is deterministic")
    }

    /// Inputs the fuzzer found whose round trip moved unknown tags between the header and the segments.
    @Test(arguments: [
        "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-HEAD\n#EXTINF:4,\n#EXT-X-AFTER-EXTINF\na.ts\n",
        "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\n#EXT-X-ORPHAN:4\n",
        "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-PART:DURATION=1,URI=\"p.mp4\"\n#EXT-X-LATER:1\n",
        "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na.ts\n#EXT-X-TAIL\n#EXT-X-PART:DURATION=1,URI=\"p.mp4\"\n",
        "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,HDCP-LEVEL=\"a,b\",VIDEO-RANGE=\" PQ\"\nv.m3u8\n",
        "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-VENDOR\r\r\n#EXTINF:4,title\r\r\na.ts\r\r\n",
        // Codecs after a comma and several spaces lost one space per round trip (only the first was trimmed).
        "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000,CODECS=\"avc1,     mp4a\"\nv.m3u8\n",
        "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000,CODECS=\" avc1 , ,\tmp4a \"\nv.m3u8\n",
    ])
    func unknownTagsKeepTheirPlace(text: String) throws {
        let parser = PlaylistParser()
        let first = try parser.parse(text)
        let second = try parser.parse(PlaylistWriter().write(first))
        #expect(first == second)
    }

    @Test func unknownTagsAreWrittenBack() throws {
        let written = PlaylistWriter().write(try PlaylistParser().parse(Self.playlists[2]))
        #expect(written.contains("#EXT-X-VENDOR:x\n"))
    }

    @Test func durationsKeepTheirExactValue() throws {
        let playlist = try PlaylistParser().parseMediaPlaylist("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:9.97663,\na.ts\n#EXTINF:0.1,\nb.ts\n")
        let written = PlaylistWriter().write(playlist)
        #expect(written.contains("#EXTINF:9.97663,\n") && written.contains("#EXTINF:0.1,\n"))
    }
}
