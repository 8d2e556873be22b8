import NIOCore
import Foundation
import PlaytraceCore
import PlaytraceHLS

/// Generates the lab's playlists through PlaytraceHLS's model and writer.
///
/// Streams, by path:
/// - `/vod/master.m3u8`, `/vod/<v>/index.m3u8`: on-demand, with program-date-time, a SCTE-35 ad break signalled
///   both by `EXT-X-DATERANGE` (SCTE35-OUT/IN) and by `EXT-X-CUE-OUT`/`CUE-OUT-CONT`/`CUE-IN`, and an HLS
///   interstitial with an asset list;
/// - `/interstitials/master.m3u8`, `/interstitials/<v>/index.m3u8`: on-demand with interstitials of every kind
///   (``LabInterstitials``);
/// - `/live/…` and `/dvr/…`: a sliding window driven by the lab's clock, with an ad break every few segments (and,
///   with ``LabConfiguration/liveInterstitialInterval``, an interstitial every few segments);
/// - `/ads/assetlist.json`, `/ads/<n>/index.m3u8`: the interstitial's assets;
/// - `/steering/master.m3u8`: the on-demand stream on two content-steering pathways (``LabSteering``);
/// - `/radio/master.m3u8`: audio only (one AAC variant: the on-demand stream's French audio).
struct LabStreams: Sendable {
    let configuration: LabConfiguration
    private let writer = PlaylistWriter()

    enum Kind: String, Sendable, CaseIterable {
        case vod, live, dvr
        /// On-demand with interstitials (``LabInterstitials``).
        case interstitials
        /// The same, with asset lists served as VAST.
        case vastInterstitials = "vast-interstitials"
        /// On-demand as fragmented MP4 would be served: one file per variant addressed by byte ranges, an
        /// initialization section (`EXT-X-MAP`) and an AES-128 key (`EXT-X-KEY`).
        case fmp4
    }

    /// The size of one segment of a variant, in bytes.
    func segmentSize(variant: Int) -> Int {
        configuration.variants[variant].bandwidth * configuration.segmentDuration / 8
    }

    static let initializationSectionSize = 1_200
    static let keySize = 16

    func byteRangeMedia(variant: Int) -> String {
        let duration = Double(configuration.segmentDuration)
        var playlist = MediaPlaylist(version: 7, targetDuration: configuration.segmentDuration, playlistType: .vod,
                                     hasEndList: true, hasIndependentSegments: true)
        let size = segmentSize(variant: variant)
        for index in 0..<configuration.vodSegmentCount {
            var tags = SegmentTags()
            tags.programDateTime = configuration.startDate + MediaTime(seconds: Double(index) * duration)
            if index == 0 {
                tags.map = MediaInitializationSection(uri: "init.mp4",
                                                      byteRange: ByteRange(length: Self.initializationSectionSize, offset: 0))
                tags.keys = [EncryptionKey(method: .aes128, uri: "key.bin", iv: "0x00000000000000000000000000000001")]
            }
            // Offsets are written for the first segment only; the others follow on, as the specification allows.
            let range = ByteRange(length: size, offset: index == 0 ? 0 : nil)
            playlist.segments.append(Segment(uri: "media.mp4", duration: duration, byteRange: range, tags: tags))
        }
        playlist.renumber()
        return writer.write(playlist)
    }

    func multivariant(_ kind: Kind) -> String {
        var playlist = MultivariantPlaylist(version: 6, hasIndependentSegments: true)
        playlist.sessionData = [SessionData(dataID: "com.playtrace.lab", value: kind.rawValue)]
        let hasRenditions = kind == .vod
        if hasRenditions { playlist.renditions = Self.renditions }
        for index in configuration.variants.indices {
            var variant = variantStream(index, uri: "\(index)/index.m3u8")
            if hasRenditions {
                variant.audio = "aud"
                variant.subtitles = "subs"
            }
            playlist.variants.append(variant)
        }
        return writer.write(playlist)
    }

    /// The variant stream of a rung of the lab's ladder.
    private func variantStream(_ index: Int, uri: String, pathwayID: String? = nil) -> VariantStream {
        let variant = configuration.variants[index]
        return VariantStream(
            uri: uri,
            stream: StreamAttributes(
                bandwidth: variant.bandwidth, averageBandwidth: variant.bandwidth * 9 / 10,
                codecs: [variant.videoCodec, "mp4a.40.2"],
                resolution: Resolution(width: variant.width, height: variant.height), pathwayID: pathwayID),
            frameRate: 25)
    }

    /// An audio-only stream: one AAC variant, the on-demand stream's French audio rendition.
    func radioMultivariant() -> String {
        var playlist = MultivariantPlaylist(version: 6, hasIndependentSegments: true)
        playlist.variants = [VariantStream(uri: "/vod/audio/fr.m3u8",
                                           stream: StreamAttributes(bandwidth: 128_000, codecs: ["mp4a.40.2"]))]
        return writer.write(playlist)
    }

    /// The on-demand stream's variants on each content-steering pathway (``LabSteering/pathways``), with the
    /// steering server's manifest (`/steering/manifest.json`) and the first pathway named.
    func steeringMultivariant() -> String {
        var playlist = MultivariantPlaylist(version: 6, hasIndependentSegments: true)
        playlist.contentSteering = ContentSteering(serverURI: "manifest.json", pathwayID: LabSteering.pathways[0])
        for pathway in LabSteering.pathways {
            for index in configuration.variants.indices {
                playlist.variants.append(variantStream(index, uri: "/\(pathway)/vod/\(index)/index.m3u8", pathwayID: pathway))
            }
        }
        return writer.write(playlist)
    }

    /// The on-demand stream's alternative renditions: English audio muxed in the variants (the default), French
    /// audio, English and German subtitles, and forced French subtitles (for the French audio) as playlists of their
    /// own (`audio/fr.m3u8`, `subtitles/en.m3u8`, `subtitles/fr-forced.m3u8`…).
    static let renditions = [
        Rendition(type: .audio, groupID: "aud", language: "en", name: "English", isDefault: true, isAutoselect: true),
        Rendition(type: .audio, uri: "audio/fr.m3u8", groupID: "aud", language: "fr", name: "Français",
                  isAutoselect: true),
        Rendition(type: .subtitles, uri: "subtitles/en.m3u8", groupID: "subs", language: "en", name: "English",
                  isAutoselect: true),
        Rendition(type: .subtitles, uri: "subtitles/de.m3u8", groupID: "subs", language: "de", name: "Deutsch",
                  isAutoselect: true),
        Rendition(type: .subtitles, uri: "subtitles/fr-forced.m3u8", groupID: "subs", language: "fr",
                  name: "Français (forcé)", isAutoselect: true, isForced: true),
    ]

    /// The media playlist of an on-demand rendition (`audio` or `subtitles`, by language), when it exists.
    func renditionMedia(kind: String, language: String) -> String? {
        let type: Rendition.MediaType = kind == "audio" ? .audio : .subtitles
        guard Self.renditions.contains(where: { $0.type == type && $0.uri == "\(kind)/\(language).m3u8" }) else {
            return nil
        }
        let duration = Double(configuration.segmentDuration)
        var playlist = MediaPlaylist(version: 6, targetDuration: configuration.segmentDuration, playlistType: .vod,
                                     hasEndList: true)
        let suffix = type == .audio ? "ts" : "vtt"
        for index in 0..<configuration.vodSegmentCount {
            playlist.segments.append(Segment(uri: "\(language)\(index).\(suffix)", duration: duration))
        }
        return writer.write(playlist)
    }

    func vodMedia(variant: Int) -> String {
        let duration = Double(configuration.segmentDuration)
        var playlist = MediaPlaylist(version: 6, targetDuration: configuration.segmentDuration,
                                     playlistType: .vod, hasEndList: true, hasIndependentSegments: true)
        let breakStart = configuration.vodBreakStartSegment
        let breakLength = configuration.vodBreakLengthSegments
        let breakDuration = MediaTime(seconds: duration * Double(breakLength))
        for index in 0..<configuration.vodSegmentCount {
            var tags = SegmentTags()
            let date = configuration.startDate + MediaTime(seconds: Double(index) * duration)
            tags.programDateTime = date
            if index == breakStart {
                tags.dateRanges.append(DateRange(
                    id: "break-1", startDate: date, duration: breakDuration,
                    scte35Out: outSignal(eventID: 1, at: Double(index) * duration, duration: breakDuration)))
                tags.cueOut = CueOut(duration: breakDuration)
            } else if index > breakStart && index < breakStart + breakLength {
                tags.cueOutContinuation = CueOutContinuation(
                    elapsed: MediaTime(seconds: Double(index - breakStart) * duration), duration: breakDuration)
            } else if index == breakStart + breakLength {
                tags.isCueIn = true
                tags.dateRanges.append(DateRange(
                    id: "break-1", startDate: date - breakDuration, duration: breakDuration,
                    scte35In: inSignal(eventID: 1, at: Double(index) * duration)))
            }
            if configuration.vodHasInterstitial, index == configuration.vodInterstitialSegment {
                let assetsDuration = configuration.interstitialAssetDurations.reduce(0, +)
                let interstitial = Interstitial(
                    assetList: "/ads/assetlist.json?pod=2", resumeOffset: .zero,
                    restrictions: configuration.vodInterstitialRestrictions,
                    timelineOccupies: "POINT")
                tags.dateRanges.append(DateRange(
                    id: "pod-2", classIdentifier: DateRange.interstitialClass, startDate: date,
                    duration: MediaTime(seconds: Double(assetsDuration)), clientAttributes: interstitial.attributes))
            }
            playlist.segments.append(Segment(uri: "seg\(index).ts", duration: duration, tags: tags))
        }
        playlist.renumber()
        return writer.write(playlist)
    }

    /// The live or DVR media playlist at `elapsed` seconds of lab time.
    /// The newest segment of the live and DVR streams at `elapsed` seconds: their playlists change with it alone.
    func liveLatest(elapsed: Double) -> Int {
        max(0, Int((elapsed / Double(configuration.segmentDuration)).rounded(.down)) + configuration.liveHistorySegments - 1)
    }

    func liveMedia(_ kind: Kind, variant: Int, elapsed: Double) -> String {
        let duration = Double(configuration.segmentDuration)
        let window = kind == .dvr ? configuration.dvrWindowSegments : configuration.liveWindowSegments
        let latest = liveLatest(elapsed: elapsed)
        let first = max(0, latest - window + 1)
        var playlist = MediaPlaylist(version: 6, targetDuration: configuration.segmentDuration, mediaSequence: first,
                                     hasIndependentSegments: true)
        let interval = max(1, configuration.liveAdBreakInterval)
        let length = max(1, min(configuration.liveAdBreakLength, interval - 1))
        let breakDuration = MediaTime(seconds: Double(length) * duration)
        // As SCTE-35 encoders and SSAI servers do, a break is announced longer than it turns out (one segment more):
        // its end comes with the CUE-IN and a second tag of its date range (RFC 8216bis §4.4.5.1) that gives its
        // END-DATE and SCTE35-IN.
        let announced = breakDuration + MediaTime(seconds: duration)
        for index in first...latest {
            var tags = SegmentTags()
            let date = configuration.startDate + MediaTime(seconds: Double(index) * duration)
            tags.programDateTime = date
            let phase = index % interval
            let breakNumber = index / interval
            if phase == interval - length {
                tags.dateRanges.append(DateRange(
                    id: "live-break-\(breakNumber)", startDate: date, plannedDuration: announced,
                    scte35Out: outSignal(eventID: UInt32(breakNumber), at: Double(index) * duration, duration: announced)))
                tags.cueOut = CueOut(duration: announced)
            } else if phase > interval - length {
                tags.cueOutContinuation = CueOutContinuation(
                    elapsed: MediaTime(seconds: Double(phase - (interval - length)) * duration), duration: announced)
            } else if phase == 0, index > 0 {
                tags.isCueIn = true
                let start = date - breakDuration
                tags.dateRanges.append(DateRange(
                    id: "live-break-\(breakNumber - 1)", startDate: start, endDate: date,
                    scte35In: inSignal(eventID: UInt32(breakNumber - 1), at: Double(index) * duration)))
            }
            if let every = configuration.liveInterstitialInterval, every > 0, index % every == 0, index > 0 {
                let interstitial = Interstitial(assetURI: "/ads/1/index.m3u8", restrictions: [.skip])
                tags.dateRanges.append(DateRange(
                    id: "live-int-\(index / every)", classIdentifier: DateRange.interstitialClass, startDate: date,
                    duration: MediaTime(seconds: Double(configuration.interstitialAssetDurations[1])),
                    clientAttributes: interstitial.attributes))
            }
            playlist.segments.append(Segment(uri: "seg\(index).ts", duration: duration, tags: tags))
        }
        playlist.renumber()
        return writer.write(playlist)
    }

    /// The newest segment of the long live stream of `count` segments at `elapsed` seconds: its window is full
    /// from the start.
    static func longLiveLatest(count: Int, elapsed: Double, segmentDuration: Int) -> Int {
        Int((elapsed / Double(max(segmentDuration, 1))).rounded(.down)) + count - 1
    }

    /// The long live stream's media playlist (`/long-live/<count>/index.m3u8`): `count` segments, a date on the
    /// first, nothing else per segment but its duration and URI — the largest window the parser's caps allow costs
    /// 25 bytes a segment. Written straight into bytes: a million segments take a fraction of a second.
    func longLiveMedia(count: Int, elapsed: Double) -> ByteBuffer {
        let duration = configuration.segmentDuration
        let latest = Self.longLiveLatest(count: count, elapsed: elapsed, segmentDuration: duration)
        let first = latest - count + 1
        let date = configuration.startDate + MediaTime(seconds: Double(first * duration))
        var buffer = ByteBuffer()
        buffer.reserveCapacity(128 + count * 28)
        buffer.writeString("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(duration)\n#EXT-X-MEDIA-SEQUENCE:\(first)\n"
            + "#EXT-X-PROGRAM-DATE-TIME:\(date.iso8601Milliseconds)\n")
        let extinf = Array("#EXTINF:\(duration),\nseg".utf8)
        let suffix = Array(".ts\n".utf8)
        for index in first...latest {
            buffer.writeBytes(extinf)
            buffer.writeString(String(index))
            buffer.writeBytes(suffix)
        }
        return buffer
    }

    func assetList() -> String {
        let assets = configuration.interstitialAssetDurations.enumerated().map { index, seconds in
            InterstitialAssetList.Asset(uri: "/ads/\(index)/index.m3u8", duration: Double(seconds))
        }
        let data = (try? InterstitialAssetList(assets: assets).json()) ?? Data("{\"ASSETS\":[]}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    func adMedia(asset: Int) -> String? {
        let durations = configuration.interstitialAssetDurations
        guard durations.indices.contains(asset) else { return nil }
        let segmentSeconds = configuration.segmentDuration
        var playlist = MediaPlaylist(version: 6, targetDuration: segmentSeconds, playlistType: .vod, hasEndList: true)
        let count = max(1, durations[asset] / segmentSeconds)
        for index in 0..<count {
            playlist.segments.append(Segment(uri: "seg\(index).ts", duration: Double(segmentSeconds)))
        }
        return writer.write(playlist)
    }

    func outSignal(eventID: UInt32, at seconds: Double, duration: MediaTime) -> String {
        Self.outSignal(eventID: eventID, at: seconds, duration: duration)
    }

    /// A SCTE-35 `splice_insert` out of the network, as hex for a DATERANGE.
    static func outSignal(eventID: UInt32, at seconds: Double, duration: MediaTime) -> String {
        SpliceInfoSectionEncoder.hex(SpliceInfoSectionEncoder.spliceInsert(
            eventID: eventID, isOutOfNetwork: true, ptsTime: UInt64(seconds * 90_000),
            breakDuration: UInt64(duration.seconds * 90_000)))
    }

    private func inSignal(eventID: UInt32, at seconds: Double) -> String {
        SpliceInfoSectionEncoder.hex(SpliceInfoSectionEncoder.spliceInsert(
            eventID: eventID, isOutOfNetwork: false, ptsTime: UInt64(seconds * 90_000), breakDuration: nil))
    }
}
