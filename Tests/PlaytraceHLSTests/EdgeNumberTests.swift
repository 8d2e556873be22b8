import PlaytraceCore
import PlaytraceHLS
import Testing

/// Numbers at the edges (issue 44): each one a listed problem at its line, never a trap. Every input here stopped the
/// process before (arithmetic overflow in `renumber()`, a `Duration` past Int64 nanoseconds further on).
@Suite("Edge numbers in playlists")
struct EdgeNumberTests {
    private func media(_ header: String, segments: String = "#EXTINF:6,\na.ts\n#EXTINF:6,\nb.ts\n") -> String {
        "#EXTM3U\n#EXT-X-TARGETDURATION:6\n\(header)\n\(segments)#EXT-X-ENDLIST\n"
    }

    @Test("A media or discontinuity sequence number at Int64.max is an invalid value, not an overflow",
          arguments: ["#EXT-X-MEDIA-SEQUENCE", "#EXT-X-DISCONTINUITY-SEQUENCE"])
    func sequenceAtTheLimit(tag: String) throws {
        let text = media("\(tag):9223372036854775807", segments: "#EXT-X-DISCONTINUITY\n#EXTINF:6,\na.ts\n#EXTINF:6,\nb.ts\n")
        expectProblem(text, .invalidValue(tag: tag, value: "9223372036854775807"), line: 3)
        // Half of Int.max is the largest read: the segments after it are still numbers.
        let largest = Int.max / 2
        let outcome = try PlaylistParser().parseWithWarnings(media("\(tag):\(largest)"))
        guard case .media(let playlist) = outcome.playlist else { Issue.record("not a media playlist"); return }
        #expect(outcome.warnings.isEmpty)
        #expect(playlist.segments.count == 2)
    }

    @Test("SKIPPED-SEGMENTS past the sequence bound is an invalid attribute")
    func skippedSegmentsAtTheLimit() {
        let text = "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:10\n"
            + "#EXT-X-SKIP:SKIPPED-SEGMENTS=9223372036854775807\n#EXTINF:6,\na.ts\n"
        expectProblem(text, .invalidAttribute(tag: "#EXT-X-SKIP", attribute: "SKIPPED-SEGMENTS",
                                              value: "9223372036854775807"), line: 5)
    }

    @Test("Byte ranges that would end past 2^63 bytes: refused, or listed where ranges follow each other")
    func byteRangesAtTheLimit() throws {
        // An offset plus a length past Int.max is no range.
        expectProblem(media("#EXT-X-VERSION:4", segments: "#EXT-X-BYTERANGE:10@9223372036854775800\n#EXTINF:6,\na.ts\n"),
                      .invalidValue(tag: "#EXT-X-BYTERANGE", value: "10@9223372036854775800"), line: 4)
        // Each range fine, the second (without an offset) starting where the first ends, past Int.max.
        let chained = media("#EXT-X-VERSION:4", segments: "#EXT-X-BYTERANGE:9223372036854775807@0\n#EXTINF:6,\na.ts\n"
            + "#EXT-X-BYTERANGE:9223372036854775807\n#EXTINF:6,\na.ts\n")
        expectProblem(chained, .invalidValue(tag: "#EXT-X-BYTERANGE",
                                             value: "9223372036854775807 (the range would end past 2^63 bytes)"), line: 7)
        let outcome = try PlaylistParser().parseWithWarnings(chained)
        guard case .media(let playlist) = outcome.playlist else { Issue.record("not a media playlist"); return }
        #expect(playlist.segments.count == 2, "the segments stay; the engine cannot ask for the range")
    }

    @Test("Segment times past the documents' range are invalid values")
    func timesPastTheRange() {
        for value in ["1e16", "1e300", "1000000001"] {
            expectProblem("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:\(value),\na.ts\n#EXTINF:6,\nb.ts\n#EXT-X-ENDLIST\n",
                          .invalidValue(tag: "#EXTINF", value: value + ","), line: 3)
        }
        expectProblem("#EXTM3U\n#EXT-X-TARGETDURATION:10000000000\n#EXTINF:6,\nb.ts\n#EXT-X-ENDLIST\n",
                      .invalidValue(tag: "#EXT-X-TARGETDURATION", value: "10000000000"), line: 2)
    }

    @Test("Attribute times past the range (DATERANGE DURATION, START TIME-OFFSET) are invalid attributes")
    func attributeTimesPastTheRange() {
        expectProblem("#EXTM3U\n#EXT-X-START:TIME-OFFSET=1e300\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\na.ts\n",
                      .invalidAttribute(tag: "#EXT-X-START", attribute: "TIME-OFFSET", value: "1e300"), line: 2)
        expectProblem(media("#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z\n"
                            + "#EXT-X-DATERANGE:ID=\"a\",START-DATE=\"2026-01-01T00:00:00Z\",DURATION=1e16"),
                      .invalidAttribute(tag: "#EXT-X-DATERANGE", attribute: "DURATION", value: "1e16"), line: 4)
    }

    @Test("Legacy cue times past the range: the tag is listed as unreadable, the playlist still reads")
    func cueTimesPastTheRange() throws {
        let text = media("", segments: "#EXT-X-CUE-OUT:1e16\n#EXTINF:6,\na.ts\n"
            + "#EXT-X-CUE-OUT-CONT:ElapsedTime=1e16,Duration=1e16\n#EXTINF:6,\nb.ts\n")
        let outcome = try PlaylistParser().parseWithWarnings(text)
        #expect(outcome.warnings.map(\.line) == [4, 7])
        guard case .media(let playlist) = outcome.playlist else { Issue.record("not a media playlist"); return }
        #expect(playlist.segments[0].tags.cueOut?.duration == nil, "kept as written, without a duration")
        #expect(playlist.segments[1].tags.cueOutContinuation?.elapsed == nil)
        // The signals the timeline reads from such a playlist hold no time past the range.
        for signal in playlist.adBreaks {
            #expect(signal.duration.map { $0.seconds <= MediaTime.maximumDocumentSeconds } ?? true)
        }
    }

    @Test("Dates that ISO 8601 cannot write (past 9999-12-31) are listed, and the JSON-facing text leaves them out")
    func datesPastYear9999() throws {
        // A time zone can carry a date written in year 9999 past it; a duration can end a range after it.
        expectProblem(media("#EXT-X-PROGRAM-DATE-TIME:9999-12-31T23:59:59.000-01:00"),
                      .invalidValue(tag: "#EXT-X-PROGRAM-DATE-TIME", value: "9999-12-31T23:59:59.000-01:00"), line: 3)
        expectProblem(media("#EXT-X-PROGRAM-DATE-TIME:9999-12-31T23:00:00Z\n"
                            + "#EXT-X-DATERANGE:ID=\"a\",START-DATE=\"9999-12-31T23:59:59Z\",DURATION=100"),
                      .invalidAttribute(tag: "#EXT-X-DATERANGE", attribute: "END-DATE", value: "outside years 0000 to 9999"),
                      line: 4)
        // Segments carried past the year by their durations: one problem, at the first of them.
        let carried = media("#EXT-X-PROGRAM-DATE-TIME:9999-12-31T23:59:55Z")
        let outcome = try PlaylistParser().parseWithWarnings(carried)
        #expect(outcome.warnings.count == 1)
        #expect(outcome.warnings.first?.line == 4)
        #expect(StreamDate(secondsSince1970: 253_402_300_800).writableISO8601Milliseconds == nil)
        #expect(StreamDate.latestWritable.writableISO8601Milliseconds == "9999-12-31T23:59:59.999Z")
    }
}
