import Foundation
import Testing
@testable import PlaytraceHLS

@Suite("Variant text attributes")
struct VariantTextTests {
    private static func parse(_ text: String) throws -> MultivariantPlaylist {
        guard case .multivariant(let playlist) = try PlaylistParser().parse(text) else {
            Issue.record("not a multivariant playlist")
            return MultivariantPlaylist()
        }
        return playlist
    }

    private static let text = """
        #EXTM3U
        #EXT-X-DEFINE:NAME="cdn",VALUE="https://cdn.example.com"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",URI="audio/en.m3u8"
        #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="English",INSTREAM-ID="CC1"
        #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.4d401f,mp4a.40.2",RESOLUTION=640x360,VIDEO-RANGE=SDR,\
        HDCP-LEVEL=NONE,AUDIO="aac",CLOSED-CAPTIONS="cc",STABLE-VARIANT-ID="v1",PATHWAY-ID="A"
        video/360p.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=2560000,CODECS=" avc1.4d401f , ,mp4a.40.2 ,",AUDIO="aac",CLOSED-CAPTIONS=NONE
        {$cdn}/vidéo/720p.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.4d401f,mp4a.40.2",RESOLUTION=640x360,VIDEO-RANGE=SDR,\
        HDCP-LEVEL=NONE,AUDIO="aac",CLOSED-CAPTIONS="cc",STABLE-VARIANT-ID="v1",PATHWAY-ID="A"
        video/360p.m3u8
        #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=86000,CODECS="avc1.4d401f",URI="video/360p-iframes.m3u8"
        """

    @Test("Every text attribute reads back as written; absent ones are nil")
    func readsBack() throws {
        let playlist = try Self.parse(Self.text)
        let first = playlist.variants[0]
        #expect(first.uri == "video/360p.m3u8")
        #expect(first.codecs == ["avc1.4d401f", "mp4a.40.2"])
        #expect(first.videoRange == "SDR")
        #expect(first.hdcpLevel == "NONE")
        #expect(first.stableVariantID == "v1")
        #expect(first.pathwayID == "A")
        #expect(first.audio == "aac")
        #expect(first.closedCaptions == "cc")
        #expect(!first.hasNoClosedCaptions)
        #expect(first.subtitles == nil && first.video == nil && first.supplementalCodecs == nil)
        #expect(first.allowedCPC == nil && first.requiredVideoLayout == nil)
        let second = playlist.variants[1]
        #expect(second.uri == "https://cdn.example.com/vidéo/720p.m3u8")
        // White space around items and empty items are left out, as players read CODECS.
        #expect(second.codecs == ["avc1.4d401f", "mp4a.40.2"])
        #expect(second.closedCaptions == nil && second.hasNoClosedCaptions)
        #expect(playlist.iFrameVariants.map(\.uri) == ["video/360p-iframes.m3u8"])
        #expect(playlist.iFrameVariants.map(\.codecs) == [["avc1.4d401f"]])
    }

    @Test("Variants compare and hash by their attributes, parsed or built")
    func equality() throws {
        let variants = try Self.parse(Self.text).variants
        #expect(variants[0] == variants[2])
        #expect(variants[0].hashValue == variants[2].hashValue)
        #expect(variants[0] != variants[1])
        let built = VariantStream(
            uri: "video/360p.m3u8",
            stream: StreamAttributes(
                bandwidth: 1_280_000, codecs: ["avc1.4d401f", "mp4a.40.2"], resolution: Resolution(width: 640, height: 360),
                hdcpLevel: "NONE", videoRange: "SDR", stableVariantID: "v1", pathwayID: "A"),
            audio: "aac", closedCaptions: "cc")
        #expect(built == variants[0])
        #expect(Set([built, variants[0], variants[1], variants[2]]).count == 2)
        // An absent attribute differs from an empty one.
        var empty = built
        empty.subtitles = ""
        #expect(empty != built)
        #expect(empty.subtitles == "")
    }

    @Test("Setting an attribute changes that variant alone, and the others keep reading theirs")
    func valueSemantics() throws {
        let variants = try Self.parse(Self.text).variants
        var changed = variants[0]
        changed.audio = "ec3"
        changed.codecs = ["hvc1.2.4.L150.B0", "", "ec-3"]
        changed.videoRange = nil
        changed.uri = "other.m3u8"
        #expect(changed.audio == "ec3")
        #expect(changed.codecs == ["hvc1.2.4.L150.B0", "ec-3"])
        #expect(changed.videoRange == nil)
        #expect(changed.uri == "other.m3u8")
        // Untouched attributes survive the change.
        #expect(changed.closedCaptions == "cc" && changed.pathwayID == "A" && changed.hdcpLevel == "NONE")
        #expect(variants[0].audio == "aac" && variants[0].videoRange == "SDR" && variants[0].uri == "video/360p.m3u8")
        #expect(variants[2] == variants[0])
        changed.codecs = []
        #expect(changed.codecs.isEmpty)
    }

    @Test("JSON names the attributes as the properties do, and decodes back to equal variants")
    func codable() throws {
        let playlist = try Self.parse(Self.text)
        let data = try JSONEncoder().encode(playlist.variants[0])
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["uri"] as? String == "video/360p.m3u8")
        #expect(object["audio"] as? String == "aac")
        #expect(object["closedCaptions"] as? String == "cc")
        #expect(object["hasNoClosedCaptions"] as? Bool == false)
        #expect(object["subtitles"] == nil)
        #expect(object["texts"] == nil && object["uriText"] == nil)
        let stream = try #require(object["stream"] as? [String: Any])
        #expect(stream["codecs"] as? [String] == ["avc1.4d401f", "mp4a.40.2"])
        #expect(stream["videoRange"] as? String == "SDR")
        #expect(stream["bandwidth"] as? Int == 1_280_000)
        #expect(stream["video"] == nil)
        let decoded = try JSONDecoder().decode(MultivariantPlaylist.self, from: try JSONEncoder().encode(playlist))
        #expect(decoded == playlist)
    }

    @Test("A playlist written back and read again has the same variants")
    func roundTrip() throws {
        let playlist = try Self.parse(Self.text)
        let again = try Self.parse(PlaylistWriter().write(playlist))
        #expect(again.variants == playlist.variants)
        #expect(again.iFrameVariants == playlist.iFrameVariants)
    }
}
