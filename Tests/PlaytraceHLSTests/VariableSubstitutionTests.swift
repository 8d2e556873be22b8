import Testing
@testable import PlaytraceHLS

@Suite("EXT-X-DEFINE variable substitution")
struct VariableSubstitutionTests {
    @Test func substitutesInURIsAndQuotedValues() throws {
        let playlist = try PlaylistParser().parseMediaPlaylist("""
            #EXTM3U
            #EXT-X-DEFINE:NAME="host",VALUE="https://a.example"
            #EXT-X-DEFINE:NAME="token",VALUE="t=1"
            #EXT-X-TARGETDURATION:4
            #EXT-X-MAP:URI="{$host}/init.mp4?{$token}"
            #EXTINF:4,
            {$host}/s0.ts?{$token}
            """)
        #expect(playlist.segments[0].uri == "https://a.example/s0.ts?t=1")
        #expect(playlist.segments[0].map?.uri == "https://a.example/init.mp4?t=1")
    }

    @Test func importsFromTheMultivariantPlaylistAndQueryParameters() throws {
        let parser = PlaylistParser(options: .init(importedVariables: ["cdn": "https://cdn.example"],
                                                   queryParameters: ["session": "abc"]))
        let playlist = try parser.parseMediaPlaylist("""
            #EXTM3U
            #EXT-X-DEFINE:IMPORT="cdn"
            #EXT-X-DEFINE:QUERYPARAM="session"
            #EXT-X-TARGETDURATION:4
            #EXTINF:4,
            {$cdn}/s0.ts?s={$session}
            """)
        #expect(playlist.segments[0].uri == "https://cdn.example/s0.ts?s=abc")
        #expect(playlist.definitions == [.import(name: "cdn"), .queryParameter(name: "session")])
    }

    @Test func unknownImportContextIsAWarningAndKeepsTheReference() throws {
        let outcome = try PlaylistParser().parseWithWarnings(
            "#EXTM3U\n#EXT-X-DEFINE:IMPORT=\"cdn\"\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\n{$cdn}/s.ts\n")
        guard case .media(let playlist) = outcome.playlist else { Issue.record("not media"); return }
        #expect(playlist.segments[0].uri == "{$cdn}/s.ts")
        #expect(outcome.warnings.count == 1)
    }

    @Test(arguments: [
        ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\n{$nope}/s.ts", PlaylistParseError.Reason.undefinedVariable("nope"), 4),
        ("#EXTM3U\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"1\"\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"2\"", .duplicateVariable("a"), 3),
        ("#EXTM3U\n#EXT-X-DEFINE:NAME=\"a b\",VALUE=\"1\"", .invalidAttribute(tag: "#EXT-X-DEFINE", attribute: "NAME", value: "a b"), 2),
        ("#EXTM3U\n#EXT-X-DEFINE:NAME=\"a\"", .missingAttribute(tag: "#EXT-X-DEFINE", attribute: "VALUE"), 2),
        ("#EXTM3U\n#EXT-X-DEFINE:VALUE=\"1\"", .missingAttribute(tag: "#EXT-X-DEFINE", attribute: "NAME"), 2),
        ("#EXTM3U\n#EXT-X-DEFINE:NAME=\"h\",VALUE=\"#EXT-X-ENDLIST\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\n{$h}", .invalidURI("#EXT-X-ENDLIST"), 4),
        ("#EXTM3U\n#EXT-X-DEFINE:NAME=\"h\",VALUE=\"\"\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\n{$h}", .invalidURI(""), 5),
        // Found by the fuzzer: a value referring to its own, not yet defined variable (it was kept as text, and a URI
        // using it wrote back into a playlist that substituted again).
        ("#EXTM3U\n#EXT-X-DEFINE:NAME=\"h\",VALUE=\"a{$h}b\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\n{$h}", .undefinedVariable("h"), 2),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-KEY:METHOD=AES-128,URI=\"{$key}\"", .undefinedVariable("key"), 3),
        ("#EXTM3U\n#EXT-X-DEFINE:NAME=\"h\",VALUE=\"x{$a\"\n#EXT-X-TARGETDURATION:4",
         .invalidAttribute(tag: "#EXT-X-DEFINE", attribute: "VALUE", value: "x{$a"), 2),
    ])
    func errors(text: String, reason: PlaylistParseError.Reason, line: Int) {
        expectProblem(text, reason, line: line)
    }

    @Test func missingImportIsAnErrorWhenTheContextIsKnown() {
        expectProblem("#EXTM3U\n#EXT-X-DEFINE:IMPORT=\"cdn\"\n#EXT-X-TARGETDURATION:4", .undefinedVariable("cdn"), line: 2,
                      options: .init(importedVariables: [:]))
    }

    @Test func unquotedValuesAreSubstitutedLikeQuotedOnesSoThePlaylistWritesBackTheSame() throws {
        // Found by the fuzzer: an unquoted VALUE kept `{$h}`, was written back quoted, and substituted on the next read.
        let text = "#EXTM3U\n#EXT-X-DEFINE:NAME=\"h\",VALUE=\"https://a\"\n#EXT-X-SESSION-DATA:DATA-ID=\"a\",VALUE=x-{$h}\n"
            + "#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n"
        let playlist = try PlaylistParser().parse(text)
        guard case .multivariant(let multivariant) = playlist else { Issue.record("not multivariant"); return }
        #expect(multivariant.sessionData.first?.value == "x-https://a")
        #expect(try PlaylistParser().parse(PlaylistWriter().write(playlist)) == playlist)
        // A value with a comma makes an unquoted value quoted, as it is written back.
        let comma = "#EXTM3U\n#EXT-X-DEFINE:NAME=\"h\",VALUE=\"a,b\"\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"en\",X-K={$h}\n"
            + "#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n"
        let withComma = try PlaylistParser().parse(comma)
        #expect(try PlaylistParser().parse(PlaylistWriter().write(withComma)) == withComma)
    }
}
