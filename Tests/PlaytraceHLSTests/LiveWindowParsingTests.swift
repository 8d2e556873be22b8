import Foundation
import PlaytraceCore
import PlaytraceHLS
import Testing

/// `keepingLastSegments`: a live playlist of any length parsed into its last segments, each kept one as the whole
/// parse would have it.
@Suite("Parsing a live window of a long playlist")
struct LiveWindowParsingTests {
    /// A live playlist of `count` segments: a date only on the first, a map and a key early on, a discontinuity
    /// (with its own date) and a key change on the way, byte ranges continuing each other.
    private static func playlist(_ count: Int) -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:2", "#EXT-X-MEDIA-SEQUENCE:500",
                     "#EXT-X-DISCONTINUITY-SEQUENCE:3", "#EXT-X-PROGRAM-DATE-TIME:2026-11-25T00:00:00.000Z",
                     "#EXT-X-MAP:URI=\"init.mp4\"", "#EXT-X-KEY:METHOD=AES-128,URI=\"key1.bin\"", "#EXT-X-BITRATE:800"]
        for index in 0..<count {
            if index == count / 3 {
                lines += ["#EXT-X-DISCONTINUITY", "#EXT-X-PROGRAM-DATE-TIME:2026-11-26T00:00:00.000Z"]
            }
            if index == count / 2 { lines.append("#EXT-X-KEY:METHOD=AES-128,URI=\"key2.bin\"") }
            lines += ["#EXTINF:2.000,", "#EXT-X-BYTERANGE:1000", "media-\(index / 10).mp4"]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func media(_ text: String, window: Int?) throws -> (MediaPlaylist, [PlaylistWarning]) {
        let outcome = try PlaylistParser(options: .init(keepingLastSegments: window)).parseWithWarnings(text)
        guard case .media(let media) = outcome.playlist else { throw PlaylistParseError(line: 0, reason: .missingHeader) }
        return (media, outcome.warnings)
    }

    @Test("The kept segments are the whole parse's last ones: sequence, discontinuity, date, key, map, byte range", arguments: [7, 100, 333, 999])
    func keptAsTheWholeParseHasThem(window: Int) throws {
        let text = Self.playlist(1_000)
        let (whole, _) = try Self.media(text, window: nil)
        let (kept, warnings) = try Self.media(text, window: window)
        #expect(kept.segments.count == window && whole.segments.count == 1_000)
        #expect(kept.mediaSequence == 500 + 1_000 - window)
        let wholeDates = ProgramDateTimeMap(whole)
        let keptDates = ProgramDateTimeMap(kept)
        func effective<T>(_ playlist: MediaPlaylist, _ index: Int, _ value: (Segment) -> T?) -> T? {
            playlist.segments[...index].reversed().lazy.compactMap(value).first
        }
        for (offset, segment) in kept.segments.enumerated() {
            let index = 1_000 - window + offset
            let original = whole.segments[index]
            #expect(segment.uri == original.uri && segment.mediaSequence == original.mediaSequence)
            #expect(segment.discontinuitySequence == original.discontinuitySequence)
            #expect(segment.resolvedByteRange == original.resolvedByteRange)
            #expect(keptDates.date(ofSegment: offset) == wholeDates.date(ofSegment: index))
            #expect(effective(kept, offset) { $0.tags.keys.last } == effective(whole, index) { $0.tags.keys.last })
            #expect(effective(kept, offset) { $0.tags.map } == effective(whole, index) { $0.tags.map })
            #expect(effective(kept, offset) { $0.tags.bitrate } == effective(whole, index) { $0.tags.bitrate })
        }
        #expect(warnings.contains { $0.message == "the first \(1_000 - window) segments are left out: only the last \(window) are kept" })
    }

    @Test("A VOD playlist, or one within the window, is kept whole")
    func vodAndShortPlaylistsWhole() throws {
        let vod = Self.playlist(300).replacingOccurrences(of: "#EXT-X-VERSION:7", with: "#EXT-X-VERSION:7\n#EXT-X-PLAYLIST-TYPE:VOD")
            + "#EXT-X-ENDLIST\n"
        #expect(try Self.media(vod, window: 10).0.segments.count == 300)
        #expect(try Self.media(Self.playlist(300), window: 300).0.segments.count == 300)
    }

    @Test("Parsing time stays linear in the input and the playlist holds the window, however long the input")
    func scaling() throws {
        func seconds(_ count: Int) throws -> (Double, Int) {
            let text = Self.playlist(count)
            let start = ContinuousClock.now
            let (media, _) = try Self.media(text, window: 1_000)
            return ((ContinuousClock.now - start).seconds, media.segments.count)
        }
        _ = try seconds(10_000)
        let (small, smallKept) = try seconds(20_000)
        let (large, largeKept) = try seconds(200_000)
        #expect(smallKept == 1_000 && largeKept == 1_000)
        // Ten times the input: about ten times the time (allowing for a loaded machine), never quadratic.
        #expect(large < small * 25, "20k: \(small) s, 200k: \(large) s")
    }
}
