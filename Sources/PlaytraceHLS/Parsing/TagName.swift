/// The tags the parser knows, found from a line's bytes without building a string.
enum TagName: UInt8, CaseIterable {
    case extm3u, extinf, version, targetDuration, mediaSequence, discontinuitySequence, discontinuity
    case byteRange, key, map, programDateTime, dateRange, gap, bitrate, playlistType, endList, iFramesOnly
    case independentSegments, start, define, part, partInf, preloadHint, serverControl, skip, renditionReport
    case streamInf, iFrameStreamInf, media, sessionData, sessionKey, contentSteering
    case cueOut, cueOutCont, cueIn, oatclsSCTE35

    var text: String {
        switch self {
        case .extm3u: return "#EXTM3U"
        case .extinf: return "#EXTINF"
        case .version: return "#EXT-X-VERSION"
        case .targetDuration: return "#EXT-X-TARGETDURATION"
        case .mediaSequence: return "#EXT-X-MEDIA-SEQUENCE"
        case .discontinuitySequence: return "#EXT-X-DISCONTINUITY-SEQUENCE"
        case .discontinuity: return "#EXT-X-DISCONTINUITY"
        case .byteRange: return "#EXT-X-BYTERANGE"
        case .key: return "#EXT-X-KEY"
        case .map: return "#EXT-X-MAP"
        case .programDateTime: return "#EXT-X-PROGRAM-DATE-TIME"
        case .dateRange: return "#EXT-X-DATERANGE"
        case .gap: return "#EXT-X-GAP"
        case .bitrate: return "#EXT-X-BITRATE"
        case .playlistType: return "#EXT-X-PLAYLIST-TYPE"
        case .endList: return "#EXT-X-ENDLIST"
        case .iFramesOnly: return "#EXT-X-I-FRAMES-ONLY"
        case .independentSegments: return "#EXT-X-INDEPENDENT-SEGMENTS"
        case .start: return "#EXT-X-START"
        case .define: return "#EXT-X-DEFINE"
        case .part: return "#EXT-X-PART"
        case .partInf: return "#EXT-X-PART-INF"
        case .preloadHint: return "#EXT-X-PRELOAD-HINT"
        case .serverControl: return "#EXT-X-SERVER-CONTROL"
        case .skip: return "#EXT-X-SKIP"
        case .renditionReport: return "#EXT-X-RENDITION-REPORT"
        case .streamInf: return "#EXT-X-STREAM-INF"
        case .iFrameStreamInf: return "#EXT-X-I-FRAME-STREAM-INF"
        case .media: return "#EXT-X-MEDIA"
        case .sessionData: return "#EXT-X-SESSION-DATA"
        case .sessionKey: return "#EXT-X-SESSION-KEY"
        case .contentSteering: return "#EXT-X-CONTENT-STEERING"
        case .cueOut: return "#EXT-X-CUE-OUT"
        case .cueOutCont: return "#EXT-X-CUE-OUT-CONT"
        case .cueIn: return "#EXT-X-CUE-IN"
        case .oatclsSCTE35: return "#EXT-OATCLS-SCTE35"
        }
    }

    /// Whether the tag belongs only to multivariant playlists.
    var isMultivariantOnly: Bool {
        switch self {
        case .streamInf, .iFrameStreamInf, .media, .sessionData, .sessionKey, .contentSteering: return true
        default: return false
        }
    }

    /// Whether the tag belongs only to media playlists.
    var isMediaOnly: Bool {
        switch self {
        case .extinf, .targetDuration, .mediaSequence, .discontinuitySequence, .discontinuity, .byteRange, .key,
             .map, .programDateTime, .gap, .bitrate, .playlistType, .endList, .iFramesOnly, .part, .partInf,
             .preloadHint, .serverControl, .skip, .renditionReport, .cueOut, .cueOutCont, .cueIn, .oatclsSCTE35:
            return true
        default: return false
        }
    }

    /// Tag names grouped by their length in bytes, for lookup without allocation.
    private static let byLength: [[(bytes: [UInt8], tag: TagName)]] = {
        var table = [[(bytes: [UInt8], tag: TagName)]](repeating: [], count: 40)
        for tag in TagName.allCases {
            let bytes = Array(tag.text.utf8)
            table[bytes.count].append((bytes, tag))
        }
        return table
    }()

    /// The tag whose name is `name` (bytes from `#` up to, not including, the colon).
    static func lookup(_ name: Span<UInt8>) -> TagName? {
        guard name.count < byLength.count else { return nil }
        for candidate in byLength[name.count] {
            if ByteScanning.equal(candidate.bytes, name) { return candidate.tag }
        }
        return nil
    }
}
