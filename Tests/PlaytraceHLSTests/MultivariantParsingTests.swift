import PlaytraceCore
import Testing
@testable import PlaytraceHLS

@Suite("Multivariant playlists")
struct MultivariantParsingTests {
    static let text = """
        #EXTM3U
        #EXT-X-VERSION:9
        #EXT-X-INDEPENDENT-SEGMENTS
        #EXT-X-START:TIME-OFFSET=-12.5,PRECISE=YES
        #EXT-X-DEFINE:NAME="cdn",VALUE="https://cdn.example"
        #EXT-X-CONTENT-STEERING:SERVER-URI="/steering.json",PATHWAY-ID="CDN-A"
        #EXT-X-SESSION-DATA:DATA-ID="com.example.title",VALUE="Lab",LANGUAGE="en"
        #EXT-X-SESSION-DATA:DATA-ID="com.example.info",URI="info.json",FORMAT=JSON
        #EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://key",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="audio/en.m3u8"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="Français",LANGUAGE="fr",ASSOC-LANGUAGE="fr-CA",STABLE-RENDITION-ID="fr1",URI="audio/fr.m3u8",BIT-DEPTH=16,SAMPLE-RATE=48000
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",FORCED=NO,CHARACTERISTICS="public.accessibility.transcribes-spoken-dialog,public.easy-to-read",URI="subs/en.m3u8"
        #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="CC1",INSTREAM-ID="CC1"
        #EXT-X-STREAM-INF:BANDWIDTH=1280000,AVERAGE-BANDWIDTH=1000000,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=1280x720,FRAME-RATE=29.97,HDCP-LEVEL=TYPE-0,VIDEO-RANGE=SDR,AUDIO="aac",SUBTITLES="subs",CLOSED-CAPTIONS="cc",SCORE=2.5,STABLE-VARIANT-ID="v720",PATHWAY-ID="CDN-A",X-VENDOR="kept"
        {$cdn}/720/index.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=640000,RESOLUTION=640x360,CLOSED-CAPTIONS=NONE,ALLOWED-CPC="com.example:SMART-TV",REQ-VIDEO-LAYOUT="CH-STEREO",SUPPLEMENTAL-CODECS="dvh1.08.07/db4h"
        360/index.m3u8
        #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=86000,CODECS="avc1.64001f",RESOLUTION=1280x720,URI="720/iframes.m3u8"
        #EXT-X-VENDOR-TAG:opaque
        """

    /// The parser reads a variant's attributes by their index in its name sets: each index names its attribute.
    @Test func variantAttributeIndicesNameTheirAttributes() {
        func name(_ index: Int, in names: AttributeNames) -> String { names.names[index].description }
        for names in [ParserState.variantNames, ParserState.iFrameVariantNames] {
            for attribute in ParserState.StreamAttribute.allCases {
                #expect(name(attribute.index, in: names) == attribute.name.description)
            }
        }
        for attribute in ParserState.VariantAttribute.allCases {
            #expect(name(attribute.index, in: ParserState.variantNames) == attribute.name.description)
        }
        #expect(name(ParserState.IFrameAttribute.uri.index, in: ParserState.iFrameVariantNames) == "URI")
        #expect(ParserState.variantNames.names.count == 17 && ParserState.iFrameVariantNames.names.count == 14)
    }

    @Test func readsEveryTag() throws {
        let playlist = try PlaylistParser().parseMultivariantPlaylist(Self.text)
        #expect(playlist.version == 9)
        #expect(playlist.hasIndependentSegments)
        #expect(playlist.start == StartPoint(timeOffset: -12.5, precise: true))
        #expect(playlist.definitions == [.value(name: "cdn", value: "https://cdn.example")])
        #expect(playlist.contentSteering == ContentSteering(serverURI: "/steering.json", pathwayID: "CDN-A"))
        #expect(playlist.sessionData.count == 2)
        #expect(playlist.sessionData[0] == SessionData(dataID: "com.example.title", value: "Lab", language: "en"))
        #expect(playlist.sessionData[1].uri == "info.json" && playlist.sessionData[1].format == "JSON")
        #expect(playlist.sessionKeys.first?.method == .sampleAES)
        #expect(playlist.sessionKeys.first?.keyFormat == "com.apple.streamingkeydelivery")

        #expect(playlist.renditions.count == 4)
        let english = playlist.renditions[0]
        #expect(english.type == .audio && english.isDefault && english.isAutoselect && english.channels == "2")
        let french = playlist.renditions[1]
        #expect(french.name == "Français" && french.associatedLanguage == "fr-CA" && french.bitDepth == 16
            && french.sampleRate == 48000 && french.stableRenditionID == "fr1")
        #expect(playlist.renditions[2].characteristics.count == 2)
        #expect(playlist.renditions[3].instreamID == "CC1" && playlist.renditions[3].uri == nil)
        #expect(playlist.renditions(ofType: .audio, group: "aac").count == 2)

        #expect(playlist.variants.count == 2)
        let high = playlist.variants[0]
        #expect(high.uri == "https://cdn.example/720/index.m3u8")
        #expect(high.bandwidth == 1_280_000 && high.averageBandwidth == 1_000_000)
        #expect(high.codecs == ["avc1.64001f", "mp4a.40.2"])
        #expect(high.resolution == Resolution(width: 1280, height: 720))
        #expect(high.frameRate == 29.97 && high.hdcpLevel == "TYPE-0" && high.videoRange == "SDR")
        #expect(high.audio == "aac" && high.subtitles == "subs" && high.closedCaptions == "cc")
        #expect(high.score == 2.5 && high.stableVariantID == "v720" && high.pathwayID == "CDN-A")
        #expect(high.otherAttributes["X-VENDOR"] == .quoted("kept"))
        let low = playlist.variants[1]
        #expect(low.hasNoClosedCaptions && low.closedCaptions == nil)
        #expect(low.allowedCPC == "com.example:SMART-TV" && low.requiredVideoLayout == "CH-STEREO")
        #expect(low.supplementalCodecs == "dvh1.08.07/db4h")

        #expect(playlist.iFrameVariants == [IFrameVariantStream(
            uri: "720/iframes.m3u8",
            stream: StreamAttributes(bandwidth: 86000, codecs: ["avc1.64001f"], resolution: Resolution(width: 1280, height: 720)))])
        #expect(playlist.unknownTags == [UnknownTag(line: "#EXT-X-VENDOR-TAG:opaque")])
    }

    @Test func variablesAreExportedForMediaPlaylists() throws {
        let outcome = try PlaylistParser().parseWithWarnings(Self.text)
        #expect(outcome.variables == ["cdn": "https://cdn.example"])
    }

    @Test(arguments: [
        ("#EXTM3U\n#EXT-X-STREAM-INF:RESOLUTION=1x1\na.m3u8", PlaylistParseError.Reason.missingAttribute(tag: "#EXT-X-STREAM-INF", attribute: "BANDWIDTH"), 2),
        ("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n", .missingVariantURI, 2),
        ("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n#EXT-X-STREAM-INF:BANDWIDTH=2\nb.m3u8", .missingVariantURI, 2),
        ("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=abc\na.m3u8", .invalidAttribute(tag: "#EXT-X-STREAM-INF", attribute: "BANDWIDTH", value: "abc"), 2),
        ("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,RESOLUTION=wide\na", .invalidAttribute(tag: "#EXT-X-STREAM-INF", attribute: "RESOLUTION", value: "wide"), 2),
        ("#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,NAME=\"a\"", .missingAttribute(tag: "#EXT-X-MEDIA", attribute: "GROUP-ID"), 2),
        ("#EXTM3U\n#EXT-X-MEDIA:TYPE=MOVIE,GROUP-ID=\"g\",NAME=\"a\"", .invalidAttribute(tag: "#EXT-X-MEDIA", attribute: "TYPE", value: "MOVIE"), 2),
        ("#EXTM3U\n#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID=\"g\",NAME=\"a\",INSTREAM-ID=\"CC1\",URI=\"x\"", .invalidAttribute(tag: "#EXT-X-MEDIA", attribute: "URI", value: "x"), 2),
        ("#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"g\",NAME=\"a\",DEFAULT=MAYBE", .invalidAttribute(tag: "#EXT-X-MEDIA", attribute: "DEFAULT", value: "MAYBE"), 2),
        ("#EXTM3U\n#EXT-X-SESSION-DATA:DATA-ID=\"x\"", .missingAttribute(tag: "#EXT-X-SESSION-DATA", attribute: "VALUE"), 2),
        ("#EXTM3U\n#EXT-X-SESSION-KEY:METHOD=NONE", .invalidAttribute(tag: "#EXT-X-SESSION-KEY", attribute: "METHOD", value: "NONE"), 2),
        ("#EXTM3U\n#EXT-X-CONTENT-STEERING:PATHWAY-ID=\"a\"", .missingAttribute(tag: "#EXT-X-CONTENT-STEERING", attribute: "SERVER-URI"), 2),
        ("#EXTM3U\n#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=1", .missingAttribute(tag: "#EXT-X-I-FRAME-STREAM-INF", attribute: "URI"), 2),
        ("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na\n#EXTINF:4,\ns.ts", .mixedPlaylistKinds, 4),
        ("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1\na", .malformedAttributeList(tag: "#EXT-X-STREAM-INF"), 2),
        ("#EXTM3U\n#EXT-X-CONTENT-STEERING:SERVER-URI=UP-ID=\"a\"", .malformedAttributeList(tag: "#EXT-X-CONTENT-STEERING"), 2),
        ("#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"en\",X=S\u{01}\r,URI=\"a\"", .malformedAttributeList(tag: "#EXT-X-MEDIA"), 2),
        ("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv\u{0}.m3u8", .invalidURI("v\u{0}.m3u8"), 3),
    ])
    func malformedInputIsATypedErrorWithItsLine(text: String, reason: PlaylistParseError.Reason, line: Int) {
        expectProblem(text, reason, line: line)
    }
}
