import PlaytraceCore
import Testing
@testable import PlaytraceHLS
import PlaytraceTestSupport

/// A playlist is untrusted input: what it costs to parse is linear in its size, and what no real playlist needs
/// is a typed error naming the line.
@Suite("Parser limits and scaling")
struct ParserLimitsTests {
    /// `a1 = {$a0}{$a0}`, `a2 = {$a1}{$a1}`, …: each definition doubles the last.
    static func chainedDefinitions(_ count: Int) -> String {
        var text = "#EXTM3U\n#EXT-X-DEFINE:NAME=\"a0\",VALUE=\"0123456789abcdef\"\n"
        for index in 1...count {
            text += "#EXT-X-DEFINE:NAME=\"a\(index)\",VALUE=\"{$a\(index - 1)}{$a\(index - 1)}\"\n"
        }
        return text + "#EXT-X-STREAM-INF:BANDWIDTH=1\n{$a\(count)}\n"
    }

    @Test func chainedDefinitionsStopAtTheValueLimitWithTheLine() {
        // 16 bytes doubled 12 times is 64 KiB; the 13th doubling goes past the value limit.
        #expect(throws: PlaylistParseError(line: 15, reason: .limitExceeded(.variableValueLength(64 << 10)))) {
            try PlaylistParser().parse(Self.chainedDefinitions(60))
        }
        #expect((try? PlaylistParser().parse(Self.chainedDefinitions(11))) != nil)
    }

    @Test func substitutionIsBoundedRelativeToTheInput() throws {
        // Values under the per-value limit, used on many lines: the whole expansion is what is bounded.
        let value = String(repeating: "v", count: 60_000)
        var text = "#EXTM3U\n#EXT-X-DEFINE:NAME=\"v\",VALUE=\"\(value)\"\n#EXT-X-TARGETDURATION:4\n"
        for _ in 0..<100 { text += "#EXTINF:4,\n{$v}{$v}{$v}{$v}\n" }
        let budget = PlaylistLimits().substitutionBudget(forInputBytes: text.utf8.count)
        #expect(budget == 32 * text.utf8.count)
        // Each segment line inserts 240,000 bytes: the first to go past the budget is named.
        let failing = budget / 240_000 + 1
        #expect(throws: PlaylistParseError(line: 3 + 2 * failing, reason: .limitExceeded(.substitutedBytes(budget)))) {
            try PlaylistParser().parse(text)
        }
        // With a larger budget the same playlist parses.
        var options = PlaylistParser.Options()
        options.limits.minimumSubstitutionBudget = 32 << 20
        #expect(try PlaylistParser(options: options).parseMediaPlaylist(text).segments.count == 100)
    }

    @Test func sizeLineAndCountLimitsNameWhatWasExceeded() {
        var options = PlaylistParser.Options()
        options.limits = PlaylistLimits(maximumBytes: 100, maximumLineLength: 40, maximumSegments: 2, maximumVariables: 1)
        let parser = PlaylistParser(options: options)
        #expect(throws: PlaylistParseError(line: 1, reason: .limitExceeded(.playlistBytes(100)))) {
            try parser.parse(String(repeating: "#", count: 101))
        }
        #expect(throws: PlaylistParseError(line: 2, reason: .limitExceeded(.lineLength(40)))) {
            try parser.parse("#EXTM3U\n#EXT-X-TARGETDURATION:4" + String(repeating: " ", count: 20))
        }
        #expect(throws: PlaylistParseError(line: 8, reason: .limitExceeded(.segments(2)))) {
            try parser.parse("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na\n#EXTINF:4,\nb\n#EXTINF:4,\nc")
        }
        #expect(throws: PlaylistParseError(line: 3, reason: .limitExceeded(.variables(1)))) {
            try parser.parse("#EXTM3U\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"\"\n#EXT-X-DEFINE:NAME=\"b\",VALUE=\"\"")
        }
        let error = PlaylistParseError(line: 1, reason: .limitExceeded(.playlistBytes(64 << 20)))
        #expect(error.description == "line 1: the playlist is larger than 64 MiB")
    }

    // The scaling tests time the parser on the wall clock, as nothing else can tell linear from quadratic: each
    // compares one size with sixteen times that size, best of three runs, so a quadratic path (256 times slower)
    // cannot pass, while a linear one (16 times) has four times the room for noise on a busy machine.

    @Test func dateRangesBeforeOneSegmentCostLinearTime() throws {
        func playlist(_ count: Int) -> [UInt8] {
            var text = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n"
            for index in 0..<count {
                text += "#EXT-X-DATERANGE:ID=\"d\(index)\",START-DATE=\"2026-01-01T00:00:00Z\",DURATION=1\n"
            }
            return Array((text + "#EXTINF:4,\na.ts\n").utf8)
        }
        let ratio = try ScalingMeasure.ratio(small: playlist(1_000), large: playlist(16_000)) { bytes in
            guard case .media(let media) = try PlaylistParser().parse(bytes: bytes) else { return 0 }
            return media.segments[0].tags.dateRanges.count
        }
        #expect(ratio < 64, "parsing 16 times the date ranges took \(ratio) times as long")
    }

    @Test(arguments: ["#EXT-X-VENDOR:x", "#EXT-X-KEY:METHOD=AES-128,URI=\"k\"", "#EXT-X-DEFINE:NAME=\"v%d\",VALUE=\"x\""])
    func repeatedTagsCostLinearTime(tag: String) throws {
        func playlist(_ count: Int) -> [UInt8] {
            var text = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n"
            for index in 0..<count { text += tag.replacingOccurrences(of: "%d", with: String(index)) + "\n" }
            return Array((text + "#EXTINF:4,\na.ts\n").utf8)
        }
        // 9,600 definitions stay under the limit of 10,000.
        let ratio = try ScalingMeasure.ratio(small: playlist(600), large: playlist(9_600)) { bytes in
            try PlaylistParser().parseWithWarnings(bytes: bytes).warnings.count
        }
        #expect(ratio < 64, "parsing 16 times the tags took \(ratio) times as long")
    }
}

private extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
