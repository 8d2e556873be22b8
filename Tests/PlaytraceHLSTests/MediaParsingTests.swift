import PlaytraceCore
import Testing
@testable import PlaytraceHLS

@Suite("Media playlists")
struct MediaParsingTests {
    @Test func readsEverySegmentTag() throws {
        let text = """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-TARGETDURATION:6
            #EXT-X-MEDIA-SEQUENCE:100
            #EXT-X-DISCONTINUITY-SEQUENCE:3
            #EXT-X-PLAYLIST-TYPE:EVENT
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-START:TIME-OFFSET=4
            #EXT-X-HEADER-VENDOR:1
            #EXT-X-KEY:METHOD=AES-128,URI="key1.bin",IV=0x0123456789ABCDEF0123456789ABCDEF
            #EXT-X-MAP:URI="init.mp4",BYTERANGE="720@0"
            #EXT-X-PROGRAM-DATE-TIME:2026-11-21T10:00:00.000Z
            #EXT-X-BITRATE:1500
            #EXTINF:6.006,first segment
            #EXT-X-BYTERANGE:1000@720
            media.mp4
            #EXTINF:5.5,
            #EXT-X-BYTERANGE:2000
            media.mp4
            #EXT-X-DISCONTINUITY
            #EXT-X-KEY:METHOD=NONE
            #EXT-X-PROGRAM-DATE-TIME:2026-11-21T11:00:00+01:00
            #EXT-X-SEGMENT-VENDOR:abc
            #EXTINF:6,
            next.ts
            #EXT-X-GAP
            #EXTINF:6,
            missing.ts
            #EXT-X-ENDLIST
            """
        let outcome = try PlaylistParser().parseWithWarnings(text)
        guard case .media(let playlist) = outcome.playlist else { Issue.record("not a media playlist"); return }
        #expect(playlist.version == 7 && playlist.targetDuration == 6)
        #expect(playlist.mediaSequence == 100 && playlist.discontinuitySequence == 3)
        #expect(playlist.playlistType == .event && playlist.hasEndList && playlist.isFinished)
        #expect(playlist.hasIndependentSegments && playlist.start?.timeOffset == 4)
        #expect(playlist.unknownTags.map(\.line) == ["#EXT-X-HEADER-VENDOR:1"])
        #expect(playlist.segments.count == 4)
        let first = playlist.segments[0]
        #expect(first.duration == 6.006 && first.title == "first segment")
        #expect(first.keys == [EncryptionKey(method: .aes128, uri: "key1.bin", iv: "0x0123456789ABCDEF0123456789ABCDEF")])
        #expect(first.map == MediaInitializationSection(uri: "init.mp4", byteRange: ByteRange(length: 720, offset: 0)))
        #expect(first.programDateTime == (try StreamDate(iso8601: "2026-11-21T10:00:00Z")))
        #expect(first.bitrate == 1500)
        #expect(first.byteRange == ByteRange(length: 1000, offset: 720))
        #expect(first.mediaSequence == 100 && first.discontinuitySequence == 3 && first.startTime == .zero)
        let second = playlist.segments[1]
        #expect(second.byteRange == ByteRange(length: 2000))
        #expect(second.resolvedByteRange == ByteRange(length: 2000, offset: 1720))
        #expect(second.startTime.seconds == 6.006 && second.mediaSequence == 101)
        let third = playlist.segments[2]
        #expect(third.isDiscontinuity && third.discontinuitySequence == 4)
        #expect(third.keys.first?.method == EncryptionKey.Method.none)
        #expect(third.programDateTime == (try StreamDate(iso8601: "2026-11-21T10:00:00Z")))
        #expect(third.unknownTags.map(\.line) == ["#EXT-X-SEGMENT-VENDOR:abc"])
        #expect(playlist.segments[3].isGap)
        #expect(abs(playlist.duration.seconds - 23.506) < 1e-9)
        #expect(outcome.warnings.isEmpty)
    }

    @Test func readsLowLatencyTags() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-VERSION:9
            #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=24,CAN-SKIP-DATERANGES=YES,HOLD-BACK=12,PART-HOLD-BACK=1.0
            #EXT-X-PART-INF:PART-TARGET=0.33334
            #EXT-X-MEDIA-SEQUENCE:266
            #EXT-X-SKIP:SKIPPED-SEGMENTS=3,RECENTLY-REMOVED-DATERANGES="ad1\tad2"
            #EXTINF:4.00008,
            fileSequence269.mp4
            #EXT-X-PART:DURATION=0.33334,URI="filePart270.0.mp4",INDEPENDENT=YES
            #EXT-X-PART:DURATION=0.33334,URI="filePart270.1.mp4",BYTERANGE="2000@0"
            #EXTINF:0.66668,
            fileSequence270.mp4
            #EXT-X-PART:DURATION=0.33334,URI="filePart271.0.mp4",GAP=YES
            #EXT-X-PRELOAD-HINT:TYPE=PART,URI="filePart271.1.mp4",BYTERANGE-START=0,BYTERANGE-LENGTH=5000
            #EXT-X-RENDITION-REPORT:URI="../1M/waitForMSN.php",LAST-MSN=270,LAST-PART=2
            #EXT-X-RENDITION-REPORT:URI="../4M/waitForMSN.php",LAST-MSN=270,LAST-PART=1
            """
        let playlist = try PlaylistParser().parseMediaPlaylist(text)
        #expect(playlist.serverControl == ServerControl(canSkipUntil: 24, canSkipDateRanges: true, holdBack: 12,
                                                        partHoldBack: 1, canBlockReload: true))
        #expect(playlist.partInformation == PartInformation(partTarget: 0.33334))
        #expect(playlist.skip == SkipInformation(skippedSegments: 3, recentlyRemovedDateRanges: ["ad1", "ad2"]))
        #expect(playlist.segments[0].mediaSequence == 269, "skipped segments count in the sequence")
        #expect(playlist.segments[1].parts.count == 2)
        #expect(playlist.segments[1].parts[0].isIndependent)
        #expect(playlist.segments[1].parts[1].byteRange == ByteRange(length: 2000, offset: 0))
        #expect(playlist.trailingTags.parts == [PartialSegment(uri: "filePart271.0.mp4", duration: 0.33334, isGap: true)])
        #expect(playlist.preloadHints == [PreloadHint(type: "PART", uri: "filePart271.1.mp4", byteRangeStart: 0, byteRangeLength: 5000)])
        #expect(playlist.renditionReports.count == 2)
        #expect(playlist.renditionReports[0] == RenditionReport(uri: "../1M/waitForMSN.php", lastMediaSequence: 270, lastPart: 2))
        #expect(!playlist.isFinished)
    }

    @Test func iFramesOnlyAndVOD() throws {
        let playlist = try PlaylistParser().parseMediaPlaylist(
            "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-I-FRAMES-ONLY\n#EXTINF:2,\n#EXT-X-BYTERANGE:100@0\ni.ts\n")
        #expect(playlist.isIFramesOnly && playlist.playlistType == .vod && playlist.isFinished && !playlist.hasEndList)
    }

    @Test func acceptsCRLFBOMCommentsBlankLinesAndSpaces() throws {
        let text = "\u{FEFF}#EXTM3U\r\n# a comment\r\n\r\n#EXT-X-TARGETDURATION: 4 \r\n#EXTINF:4,\r\n  a.ts  \r\n#EXT-X-ENDLIST"
        let playlist = try PlaylistParser().parseMediaPlaylist(text)
        #expect(playlist.segments.map(\.uri) == ["a.ts"])
        #expect(playlist.targetDuration == 4)
    }

    @Test func warnsAboutSegmentsLongerThanTheTarget() throws {
        let outcome = try PlaylistParser().parseWithWarnings("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:5.1,\na.ts\n")
        #expect(outcome.warnings.count == 1)
        #expect(outcome.warnings[0].message.contains("target duration"))
    }

    @Test(arguments: [
        ("", PlaylistParseError.Reason.missingHeader, 1),
        ("#EXT-X-TARGETDURATION:4", .missingHeader, 1),
        ("#EXTM3U\n#EXTINF:4,\na.ts", .missingTargetDuration, 3),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:4\na.ts", .missingSegmentDuration, 3),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:four", .invalidValue(tag: "#EXT-X-TARGETDURATION", value: "four"), 2),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-TARGETDURATION:5", .duplicateTag("#EXT-X-TARGETDURATION"), 3),
        ("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-VERSION:3", .duplicateTag("#EXT-X-VERSION"), 3),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:abc,\na.ts", .invalidValue(tag: "#EXTINF", value: "abc,"), 3),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:-1,\na.ts", .invalidValue(tag: "#EXTINF", value: "-1,"), 3),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-PROGRAM-DATE-TIME:yesterday\n#EXTINF:4,\na.ts", .invalidValue(tag: "#EXT-X-PROGRAM-DATE-TIME", value: "yesterday"), 3),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-PROGRAM-DATE-TIME:2026-02-30T00:00:00Z", .invalidValue(tag: "#EXT-X-PROGRAM-DATE-TIME", value: "2026-02-30T00:00:00Z"), 3),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:LIVE", .invalidValue(tag: "#EXT-X-PLAYLIST-TYPE", value: "LIVE"), 3),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-KEY:METHOD=AES-128", .missingAttribute(tag: "#EXT-X-KEY", attribute: "URI"), 3),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-KEY:URI=\"k\"", .missingAttribute(tag: "#EXT-X-KEY", attribute: "METHOD"), 3),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MAP:BYTERANGE=\"1@0\"", .missingAttribute(tag: "#EXT-X-MAP", attribute: "URI"), 3),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MAP:URI=\"i\",BYTERANGE=\"x\"", .invalidAttribute(tag: "#EXT-X-MAP", attribute: "BYTERANGE", value: "x"), 3),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-BYTERANGE:12@x\n#EXTINF:4,\na.ts", .invalidValue(tag: "#EXT-X-BYTERANGE", value: "12@x"), 3),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-BYTERANGE:12\n#EXTINF:4,\na.ts", .unresolvableByteRange, 3),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-PART:URI=\"p\"", .missingAttribute(tag: "#EXT-X-PART", attribute: "DURATION"), 3),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-PART-INF:X=1", .missingAttribute(tag: "#EXT-X-PART-INF", attribute: "PART-TARGET"), 3),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-SKIP:X=1", .missingAttribute(tag: "#EXT-X-SKIP", attribute: "SKIPPED-SEGMENTS"), 3),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-PRELOAD-HINT:URI=\"p\"", .missingAttribute(tag: "#EXT-X-PRELOAD-HINT", attribute: "TYPE"), 3),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-RENDITION-REPORT:LAST-MSN=1", .missingAttribute(tag: "#EXT-X-RENDITION-REPORT", attribute: "URI"), 3),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-SERVER-CONTROL:HOLD-BACK=-1", .invalidAttribute(tag: "#EXT-X-SERVER-CONTROL", attribute: "HOLD-BACK", value: "-1.0"), 3),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-BITRATE:fast", .invalidValue(tag: "#EXT-X-BITRATE", value: "fast"), 3),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:99999999999999999999999", .invalidValue(tag: "#EXT-X-MEDIA-SEQUENCE", value: "99999999999999999999999"), 3),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-START:PRECISE=YES", .missingAttribute(tag: "#EXT-X-START", attribute: "TIME-OFFSET"), 3),
    ])
    func malformedInputIsATypedErrorWithItsLine(text: String, reason: PlaylistParseError.Reason, line: Int) {
        expectProblem(text, reason, line: line)
    }

    @Test func invalidUTF8IsAnError() {
        var bytes = Array("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,".utf8)
        bytes += [0xC3, 0x28]
        bytes += Array("\na.ts\n".utf8)
        let strict = PlaylistParser(options: .init(isStrict: true))
        #expect(throws: PlaylistParseError(line: 3, reason: .invalidEncoding)) { try strict.parse(bytes: bytes) }
        // Leniently, the segment keeps its duration and loses the unreadable title.
        let outcome = try? PlaylistParser().parseWithWarnings(bytes: bytes)
        #expect(outcome?.warnings.map(\.reason) == [.invalidEncoding])
        guard case .media(let playlist) = outcome?.playlist else { Issue.record("not a media playlist"); return }
        #expect(playlist.segments.map(\.uri) == ["a.ts"] && playlist.segments[0].title.isEmpty)
    }

    @Test func errorsDescribeThemselves() {
        let error = PlaylistParseError(line: 7, reason: .missingAttribute(tag: "#EXT-X-KEY", attribute: "URI"))
        #expect(error.description == "line 7: #EXT-X-KEY lacks the required attribute URI")
    }
}
