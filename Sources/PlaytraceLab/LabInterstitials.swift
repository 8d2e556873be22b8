import Foundation
import PlaytraceCore
import PlaytraceHLS

/// The lab's stream with HLS interstitials (`/interstitials/…`): an on-demand primary of
/// ``LabConfiguration/interstitialStreamSegmentCount`` segments, with program-date-time, a SCTE-35 break stitched in
/// (as the on-demand stream's), and interstitials of every kind a player must handle. With `d` the segment duration:
///
/// | ID | Where | What |
/// |----|-------|------|
/// | `pre` | `CUE=PRE` | one asset (`X-ASSET-URI`), `d` s |
/// | `mid-1` | 5.4·d, `X-SNAP="OUT,IN"` | asset list of two assets (2·d, d); `X-RESUME-OFFSET` 2.75·d, snapped to 8·d |
/// | `mid-2` | 10·d | asset list (2·d, d); `X-RESTRICT="JUMP"`, skip control from 2 s; resumes where it began |
/// | `mid-3` | 13·d | asset list that does not exist (404): cancelled |
/// | `mid-4` | 15·d | asset list whose first asset does not exist (skipped), then one of d; resumes where it began |
/// | `post` | `CUE="POST,ONCE"` | one asset, `d` s |
///
/// Each ad of the stitched break also has MediaTailor's ad-ID date range (`CLASS="urn:sva:advertising-wg:ad-id-signaling"`)
/// whose `X-AD-CREATIVE-SIGNALING` (SVTA2053, base64 JSON) carries its beacons, to `/beacons/signaling/…`.
///
/// Asset lists are at `/ads/pods/<id>.json`; assets are the lab's ad streams `/ads/<n>/index.m3u8` (asset 9 does
/// not exist). The VAST flavour (`/vast-interstitials/…`, ``usesVAST``) has the same interstitials with asset lists
/// served by the lab's VAST ad server instead (``LabVAST``): `mid-1`'s through two wrappers, `mid-3`'s with no ad.
struct LabInterstitials {
    let configuration: LabConfiguration
    /// Whether the asset lists are VAST (every interstitial, the pre- and post-roll too, has one).
    var usesVAST = false
    private let writer = PlaylistWriter()

    /// One interstitial of the stream.
    struct Entry {
        var id: String
        /// Its `START-DATE`, in seconds from the stream's first segment.
        var offset: Double
        var cue: DateRange.Cue
        var interstitial: Interstitial
        /// Its assets as the asset list (or asset URI) gives them: the lab's ad stream number and its duration.
        var assets: [(number: Int, duration: Double)]
    }

    private var d: Double { Double(configuration.segmentDuration) }
    private var segmentCount: Int { configuration.interstitialStreamSegmentCount }
    private var adDurations: [Int] { configuration.interstitialAssetDurations }

    /// The ad stream that does not exist (its playlist answers 404).
    static let missingAsset = 9

    var entries: [Entry] {
        let pair = adDurations.enumerated().map { (number: $0.offset, duration: Double($0.element)) }
        let short = (number: 1, duration: Double(adDurations[1]))
        let entries = [
            Entry(id: "pre", offset: 0, cue: .pre, interstitial: Interstitial(assetURI: "/ads/1/index.m3u8"), assets: [short]),
            Entry(id: "mid-1", offset: 5.4 * d, cue: [],
                  interstitial: Interstitial(assetList: "/ads/pods/mid-1.json", resumeOffset: MediaTime(seconds: 2.75 * d),
                                             snap: [.out, .in]),
                  assets: pair),
            Entry(id: "mid-2", offset: 10 * d, cue: [],
                  interstitial: Interstitial(assetList: "/ads/pods/mid-2.json", resumeOffset: .zero, restrictions: [.jump],
                                             skipControlOffset: MediaTime(seconds: 2), skipControlLabelID: "skip"),
                  assets: pair),
            Entry(id: "mid-3", offset: 13 * d, cue: [], interstitial: Interstitial(assetList: "/ads/pods/missing.json"),
                  assets: pair),
            Entry(id: "mid-4", offset: 15 * d, cue: [],
                  interstitial: Interstitial(assetList: "/ads/pods/mid-4.json", resumeOffset: .zero),
                  assets: [(Self.missingAsset, Double(adDurations[0])), short]),
            Entry(id: "post", offset: Double(segmentCount) * d, cue: [.post, .once],
                  interstitial: Interstitial(assetURI: "/ads/1/index.m3u8"), assets: [short]),
        ]
        guard usesVAST else { return entries }
        return entries.map { entry in
            var entry = entry
            entry.interstitial.assetURI = nil
            entry.interstitial.assetList = entry.id == "mid-1" ? "/vast/chain/2/mid-1.xml" : "/vast/pods/\(entry.id).xml"
            return entry
        }
    }

    /// The media playlist of a variant; `base` is the lab's own address, for the signaled beacon URLs.
    func media(variant: Int, base: String = "") -> String {
        var playlist = MediaPlaylist(version: 6, targetDuration: configuration.segmentDuration, playlistType: .vod,
                                     hasEndList: true, hasIndependentSegments: true)
        let breakStart = configuration.vodBreakStartSegment
        let breakDuration = MediaTime(seconds: d * Double(configuration.vodBreakLengthSegments))
        let entries = entries
        for index in 0..<segmentCount {
            var tags = SegmentTags()
            let date = configuration.startDate + MediaTime(seconds: Double(index) * d)
            tags.programDateTime = date
            if index == breakStart {
                tags.dateRanges.append(DateRange(id: "break-1", startDate: date, duration: breakDuration,
                                                 scte35Out: LabStreams.outSignal(eventID: 1, at: Double(index) * d,
                                                                                 duration: breakDuration)))
            }
            if index >= breakStart, index < breakStart + configuration.vodBreakLengthSegments {
                tags.dateRanges.append(adIDSignaling(ad: index - breakStart + 1, date: date, base: base))
            }
            // Each interstitial is announced on the segment its date falls in (the post-roll on the last one).
            for entry in entries where min(Int(entry.offset / d), segmentCount - 1) == index {
                let duration = entry.assets.reduce(0) { $0 + $1.duration }
                tags.dateRanges.append(DateRange(
                    id: entry.id, classIdentifier: DateRange.interstitialClass,
                    startDate: configuration.startDate + MediaTime(seconds: entry.offset), cue: entry.cue,
                    duration: MediaTime(seconds: duration), clientAttributes: entry.interstitial.attributes))
            }
            playlist.segments.append(Segment(uri: "seg\(index).ts", duration: d, tags: tags))
        }
        playlist.renumber()
        return writer.write(playlist)
    }

    /// MediaTailor's ad-ID signaling of one ad of the stitched break: a slot with its tracking (SVTA2053).
    private func adIDSignaling(ad: Int, date: StreamDate, base: String) -> DateRange {
        let json = LabSignaling.slot(ad: ad, duration: d, sink: "\(base)/beacons/signaling/break-1/ad-\(ad)")
        var attributes = AttributeList()
        attributes.append("X-AD-CREATIVE-SIGNALING", .quoted(json.base64EncodedString()))
        return DateRange(id: "ad-id-break-1-\(ad)", classIdentifier: "urn:sva:advertising-wg:ad-id-signaling", startDate: date,
                         duration: MediaTime(seconds: d), clientAttributes: attributes)
    }

    /// The asset list of an interstitial (`/ads/pods/<id>.json`), `nil` when there is none.
    func assetList(id: String) -> String? {
        guard let entry = entries.first(where: { $0.id == id && $0.interstitial.assetList == "/ads/pods/\(id).json" }) else {
            return nil
        }
        let list = InterstitialAssetList(assets: entry.assets.map {
            InterstitialAssetList.Asset(uri: "/ads/\($0.number)/index.m3u8", duration: $0.duration)
        })
        return (try? list.json()).map { String(decoding: $0, as: UTF8.self) }
    }
}
