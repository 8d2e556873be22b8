import Foundation
import PlaytraceDASH
@testable import PlaytraceDASHPlayback
import Testing

@Suite("Segment URLs joined without Foundation agree with RFC 3986 resolution")
struct SegmentURLJoinTests {
    @Test("Plain relative paths are the base's directory and the path; anything else is resolved by URL", arguments: [
        ("https://cdn.example/show/manifest.mpd?token=1", "v1/1234.m4s"),
        ("https://cdn.example/show/", "chunk-0-00001.m4s"),
        ("https://cdn.example/show/manifest.mpd", "seg.m4s?sig=abc&x=1"),
        ("https://cdn.example", "seg.m4s"),
        ("https://cdn.example/a/b/manifest.mpd", "../ads/1.m4s"),
        ("https://cdn.example/a/b/manifest.mpd", "./1.m4s"),
        ("https://cdn.example/a/b/manifest.mpd", "/root/1.m4s"),
        ("https://cdn.example/a/b/manifest.mpd", "https://other.example/1.m4s"),
        ("https://cdn.example/a/b/manifest.mpd", "a%20b.m4s"),
        ("https://cdn.example/a/b/manifest.mpd#frag", "v/.hidden/1.m4s"),
        ("https://cdn.example/a/b/manifest.mpd", "v//1.m4s"),
    ])
    func agrees(base: String, path: String) throws {
        let resolved = ResolvedBaseURL(url: try #require(URL(string: base)))
        let joined = SegmentURLJoin.join(path, at: resolved, directory: SegmentURLJoin.directory(of: base))
        #expect(joined == URL(string: path, relativeTo: resolved.url)?.absoluteURL.absoluteString)
    }

    @Test("Dot segments, absolute paths and schemes are not plain")
    func plain() {
        #expect(SegmentURLJoin.isPlain("v1/$1.m4s") == false)
        #expect(SegmentURLJoin.isPlain("v1/1.m4s"))
        #expect(!SegmentURLJoin.isPlain("../1.m4s"))
        #expect(!SegmentURLJoin.isPlain("a/./1.m4s"))
        #expect(!SegmentURLJoin.isPlain("/1.m4s"))
        #expect(!SegmentURLJoin.isPlain("https://x/1.m4s"))
        #expect(SegmentURLJoin.directory(of: "https://host") == nil)
        #expect(SegmentURLJoin.directory(of: "https://host/a/b.mpd?x=/y") == "https://host/a/")
    }
}
