import Foundation
import Hummingbird
import NIOCore
import PlaytraceDASH

/// A resource the lab serves: its body and content type.
typealias LabContent = (ByteBuffer, String)

/// What each of the lab's routes serves (``LabServer/makeRouter()`` says which path leads where): playlists,
/// segments, asset lists, SSAI metadata and VAST, synthetic unless the real media directory has them.
extension LabServer {
    static let playlistType = "application/vnd.apple.mpegurl"

    static func playlist(_ text: String) -> LabContent { (ByteBuffer(string: text), playlistType) }
    static func json(text: String) -> LabContent { (ByteBuffer(string: text), "application/json") }
    static func xml(_ text: String) -> LabContent { (ByteBuffer(string: text), "application/xml") }

    /// The base URL absolute links in documents start with.
    var base: String { baseURL?.absoluteString ?? "" }

    /// A stream's multivariant playlist.
    func multivariant(_ kind: LabStreams.Kind) -> LabContent { Self.playlist(streams.multivariant(kind)) }

    /// A variant's media playlist (`index.m3u8`), segment (`segN.ts`), or fragmented MP4 file (`init.mp4`,
    /// `key.bin`, `media.mp4`), `nil` for what the variant does not have.
    func variantResource(_ kind: LabStreams.Kind, variant: Int, file: String, path: String) -> LabContent? {
        guard configuration.variants.indices.contains(variant) else { return nil }
        if file == "index.m3u8" {
            switch kind {
            case .vod: return Self.playlist(streams.vodMedia(variant: variant))
            case .interstitials: return Self.playlist(LabInterstitials(configuration: configuration).media(variant: variant, base: base))
            case .vastInterstitials:
                return Self.playlist(LabInterstitials(configuration: configuration, usesVAST: true).media(variant: variant, base: base))
            case .fmp4: return Self.playlist(streams.byteRangeMedia(variant: variant))
            case .live, .dvr:
                // One rendering per variant per update, whatever the number of viewers.
                let elapsed = stopwatch.elapsedSeconds
                return cache.content(for: .livePlaylist(kind, variant: variant, latest: streams.liveLatest(elapsed: elapsed))) {
                    Self.playlist(streams.liveMedia(kind, variant: variant, elapsed: elapsed))
                }
            }
        }
        if kind == .fmp4 {
            switch file {
            case "init.mp4": return (synthetic(path: path, size: LabStreams.initializationSectionSize), "video/mp4")
            case "key.bin": return (synthetic(path: "", size: LabStreams.keySize), "application/octet-stream")
            case "media.mp4":
                return (synthetic(path: path, size: streams.segmentSize(variant: variant) * configuration.vodSegmentCount),
                        "video/mp4")
            default: return nil
            }
        }
        guard let number = segmentNumber(file), segmentExists(kind, number) else { return nil }
        if kind == .live || kind == .dvr, let loop = configuration.liveLoopSegments,
           let (looped, type) = labMedia("content/\(variant)/seg\(number % loop).ts") {
            let ticks = UInt64(number / loop) * UInt64(loop * configuration.segmentDuration) * 90_000
            return cache.content(for: .loopedSegment(variant: variant, number: number)) {
                (ByteBuffer(bytes: TransportStreamRetimer.retimed(Array(looped.readableBytesView), by: ticks)), type)
            }
        }
        if kind != .live, kind != .dvr, let real = labMedia("content/\(variant)/\(file)") { return real }
        return (synthetic(path: path, size: configuration.variants[variant].bandwidth * configuration.segmentDuration / 8),
                "video/mp2t")
    }

    /// Synthetic segment bytes for `path`, made once (``SegmentPayload``).
    func synthetic(path: String, size: Int) -> ByteBuffer {
        cache.content(for: .synthetic(path: path, size: size)) { (SegmentPayload.bytes(path: path, size: size), "") }?.0
            ?? SegmentPayload.bytes(path: path, size: size)
    }

    /// An audio or subtitles rendition of the on-demand stream (`type` is `audio` or `subtitles`): its playlist
    /// (`<language>.m3u8`) or a segment.
    func rendition(_ type: String, file: String, path: String) -> LabContent? {
        if file.hasSuffix(".m3u8") {
            return streams.renditionMedia(kind: type, language: String(file.dropLast(5))).map(Self.playlist)
        }
        let isAudio = type == "audio"
        guard file.hasSuffix(isAudio ? ".ts" : ".vtt") else { return nil }
        if let real = labMedia("\(type)/\(file)") { return real }
        let size = isAudio ? 128_000 * configuration.segmentDuration / 8 : 512
        return (synthetic(path: path, size: size), isAudio ? "video/mp2t" : "text/vtt")
    }

    /// A live media playlist of any window length (1 to 1,000,000 segments), as plain as one can be, or a segment
    /// of it.
    func longLive(count: Int, file: String, path: String) -> LabContent? {
        guard (1...1_000_000).contains(count) else { return nil }
        if file == "index.m3u8" {
            return (streams.longLiveMedia(count: count, elapsed: stopwatch.elapsedSeconds), Self.playlistType)
        }
        guard let number = segmentNumber(file), number >= 0,
              number <= LabStreams.longLiveLatest(count: count, elapsed: stopwatch.elapsedSeconds,
                                                  segmentDuration: configuration.segmentDuration) else { return nil }
        return (synthetic(path: path, size: configuration.variants[0].bandwidth * configuration.segmentDuration / 8),
                "video/mp2t")
    }

    /// An interstitial asset's media playlist or segment.
    func adAsset(_ asset: Int, file: String, path: String) -> LabContent? {
        if file == "index.m3u8" { return streams.adMedia(asset: asset).map(Self.playlist) }
        guard streams.adMedia(asset: asset) != nil, segmentNumber(file) != nil else { return nil }
        if let real = labMedia("ad/\(file)") { return real }
        let bandwidth = configuration.variants[configuration.variants.count / 2].bandwidth
        return (synthetic(path: path, size: bandwidth * configuration.segmentDuration / 8), "video/mp2t")
    }

    /// A Harmonic session's metadata, as of now.
    func harmonicMetadata(_ stream: LabSSAI.Stream, dash: Bool = false) -> LabContent {
        let ssai = LabSSAI(configuration: configuration)
        let elapsed = stopwatch.elapsedSeconds
        // Every session's metadata is the same document for a window: made once per update.
        return cache.content(for: .harmonicMetadata(stream, latest: ssai.liveWindow(elapsed: elapsed).latest, dash: dash)) {
            Self.json(text: ssai.harmonic(stream, elapsed: elapsed, base: base, dash: dash))
        } ?? Self.json(text: ssai.harmonic(stream, elapsed: elapsed, base: base, dash: dash))
    }

    /// A MediaTailor session's tracking data, as of now.
    func mediaTailorTracking(_ session: String) -> LabContent? {
        LabSSAI(configuration: configuration).mediaTailor(session: session, elapsed: stopwatch.elapsedSeconds, base: base)
            .map { Self.json(text: $0) }
    }

    /// The lab's VAST ad server.
    var vast: LabVAST { LabVAST(configuration: configuration, base: base) }

    private func segmentNumber(_ name: String) -> Int? {
        guard name.hasPrefix("seg"), name.hasSuffix(".ts") else { return nil }
        return Int(name.dropFirst(3).dropLast(3))
    }

    private func segmentExists(_ kind: LabStreams.Kind, _ number: Int) -> Bool {
        guard number >= 0 else { return false }
        if kind == .vod { return number < configuration.vodSegmentCount }
        if kind == .interstitials || kind == .vastInterstitials { return number < configuration.interstitialStreamSegmentCount }
        let latest = Int((stopwatch.elapsedSeconds / Double(configuration.segmentDuration)).rounded(.down))
            + configuration.liveHistorySegments - 1
        return number <= latest
    }
}

extension LabServer {
    /// The real form of one of the lab's own segments (`lab/` in the real media directory: the on-demand streams'
    /// content, their renditions, the interstitials' ad), when the directory has it; else the synthetic one serves.
    func labMedia(_ relativePath: String) -> (ByteBuffer, String)? {
        mediaFile(["lab"] + relativePath.split(separator: "/").map(String.init))
    }

    /// A file of the real media directory (``LabConfiguration/mediaDirectory``), by its path under it.
    func mediaFile(_ parts: [String]) -> (ByteBuffer, String)? {
        guard let directory = configuration.mediaDirectory, !parts.isEmpty,
              !parts.contains(where: { $0 == ".." || $0 == "." || $0.hasPrefix(".") }) else { return nil }
        let url = URL(fileURLWithPath: directory).appendingPathComponent(parts.joined(separator: "/"))
        return cache.content(for: .file(path: url.path)) { Self.readMediaFile(url) }
    }

    private static func readMediaFile(_ url: URL) -> LabContent? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        let type: String = switch url.pathExtension {
        case "m3u8": "application/vnd.apple.mpegurl"
        case "mpd": LabDASH.contentType
        case "ts": "video/mp2t"
        case "mp4", "m4s": "video/mp4"
        case "vtt": "text/vtt"
        case "aac": "audio/aac"
        default: "application/octet-stream"
        }
        return (ByteBuffer(bytes: data), type)
    }
}

extension LabServer {
    /// A DASH segment or initialization segment: `/dash/<stream>/<representation>/<n>.m4s` or `init.mp4` (`ads` is
    /// the on-demand presentation's ad period). Synthetic bytes of the representation's size; a live segment exists
    /// from when it is complete.
    func dashSegment(stream: String, representation: String, file: String, path: String) -> LabContent? {
        let dash = self.dash
        guard let size = dash.segmentSize(representation) else { return nil }
        let type = representation == LabDASH.audioID ? "audio/mp4" : "video/mp4"
        guard stream == "ads" || LabDASH.Kind(rawValue: stream) != nil else { return nil }
        let kind = LabDASH.Kind(rawValue: stream)
        let isLive = kind.map(LabDASH.liveKinds.contains) ?? false
        if file == "init.mp4" {
            if isLive, let real = labMedia("dash/\(representation)/init.mp4") { return (real.0, type) }
            return (synthetic(path: path, size: LabStreams.initializationSectionSize), type)
        }
        guard file.hasSuffix(".m4s"), let number = Int(file.dropLast(4)) else { return nil }
        if stream == "ads" {
            guard (1...configuration.vodBreakLengthSegments).contains(number) else { return nil }
        } else if let kind {
            guard dash.segmentExists(kind, number: number, elapsed: stopwatch.elapsedSeconds) else { return nil }
            let message = dash.eventMessage(kind, segment: number)
            if isLive, let real = loopedFragment(representation: representation, number: number, eventMessage: message) {
                return (real, type)
            }
            // A break's first segment of an emsg presentation starts with its event; a live segment then has its
            // producer reference and a fragment header that dates its first sample (on the MPD's timescale, 1).
            var prefix = message ?? []
            if isLive {
                let decodeTime = UInt64(number * configuration.segmentDuration)
                prefix += dash.producerReference(segment: number, decodeTime: decodeTime) + LabDASH.fragmentHeader(decodeTime: decodeTime)
            }
            if !prefix.isEmpty {
                var bytes = ByteBuffer(bytes: prefix)
                var rest = synthetic(path: path, size: max(0, size - prefix.count))
                bytes.writeBuffer(&rest)
                return (bytes, type)
            }
        }
        return (synthetic(path: path, size: size), type)
    }

    /// A live DASH segment made of the real media (`lab/dash/<representation>/<n>.m4s`, the content's 80 s as
    /// fragmented MP4): segment `number` is the content's segment `number` modulo the loop, its times moved on by the
    /// loops before it, after `eventMessage` when there is one. `nil` without the real media.
    func loopedFragment(representation: String, number: Int, eventMessage: [UInt8]?) -> ByteBuffer? {
        guard let loop = configuration.liveLoopSegments, number >= 0 else { return nil }
        let key = LabCache.Key.loopedFragment(representation: representation, number: number, event: eventMessage)
        return cache.content(for: key) {
            guard let (initialization, _) = labMedia("dash/\(representation)/init.mp4"),
                  let timescale = InitializationSegment.trackTimescale(Array(initialization.readableBytesView)),
                  let (looped, type) = labMedia("dash/\(representation)/\(number % loop).m4s") else { return nil }
            let seconds = UInt64(number / loop) * UInt64(loop * configuration.segmentDuration)
            var bytes = FragmentRetimer.retimed(Array(looped.readableBytesView), bySeconds: seconds, trackTimescale: timescale)
            // The encoder's clock at the first sample, before the fragments.
            if let decodeTime = SegmentProducerTime.decodeTime(ofSegment: bytes),
               let moof = BoxWalk(bytes).boxes.first(where: { $0.type == "moof" }) {
                bytes.insert(contentsOf: dash.producerReference(segment: number, decodeTime: decodeTime), at: moof.offset)
            }
            if let eventMessage {
                // After the segment type (the first box when there is one), before the index and the fragments.
                let styp = BoxWalk(bytes).boxes.first.flatMap { $0.type == "styp" ? $0.size : nil } ?? 0
                bytes.insert(contentsOf: eventMessage, at: styp)
            }
            return (ByteBuffer(bytes: bytes), type)
        }?.0
    }
}
