import PlaytraceCore
import PlaytraceHLS

/// What `playtrace inspect` reports of a playlist, as text lines or JSON (`--json` adds every segment; the JSON
/// follows `schemas/inspect.schema.json`).
struct InspectionReport: Codable {
    struct Variant: Codable {
        var uri: String
        var bandwidthBitsPerSecond: Int
        var averageBandwidthBitsPerSecond: Int?
        var resolution: Resolution?
        var codecs: [String]
        var framesPerSecond: Double?
        var videoRange: String?
        var hdcpLevel: String?
        /// The `GROUP-ID` of the audio renditions it plays with.
        var audioGroup: String?
        /// The `GROUP-ID` of the subtitle renditions it plays with.
        var subtitlesGroup: String?
        var pathwayID: String?
    }

    struct IFrameVariant: Codable {
        var uri: String
        var bandwidthBitsPerSecond: Int
        var resolution: Resolution?
        var codecs: [String]
    }

    /// `EXT-X-START`: where playback should begin.
    struct Start: Codable {
        /// From the start of the playlist when positive, from its end when negative.
        var timeOffsetSeconds: Double
        var precise: Bool

        init(_ point: StartPoint) {
            timeOffsetSeconds = point.timeOffset.seconds
            precise = point.precise
        }
    }

    /// `EXT-X-SESSION-DATA`: exactly one of `value` and `uri`.
    struct SessionDataEntry: Codable {
        var dataID: String
        var value: String?
        var uri: String?
        /// `JSON` (the default) or `RAW`, for a `uri`.
        var format: String?
        var language: String?
    }

    struct Rendition: Codable {
        var type: String
        var group: String
        var name: String
        var language: String?
        var uri: String?
        var isDefault: Bool
    }

    /// Content steering: the steering server, the initial pathway, and the variants of each pathway.
    struct Steering: Codable {
        var serverURI: String
        var pathwayID: String?
        var pathways: [String: [String]]
    }

    struct DateRangeSummary: Codable {
        var id: String
        var classIdentifier: String?
        var startDate: String
        /// `DURATION`, or the time from `START-DATE` to `END-DATE`.
        var durationSeconds: Double?
        var plannedDurationSeconds: Double?
        /// The range's message: its `SCTE35-OUT`, else its `SCTE35-IN`, else its `SCTE35-CMD`.
        var scte35: SCTE35Report?
        /// Each SCTE-35 attribute of the range, every tag with its `ID` merged: a break opened by one tag's
        /// `SCTE35-OUT` and closed by a later tag's `SCTE35-CMD` lists both.
        var scte35Out: SCTE35Report?
        var scte35In: SCTE35Report?
        var scte35Command: SCTE35Report?
        /// What an interstitial (`CLASS="com.apple.hls.interstitial"`) plays; absent on other date ranges.
        var interstitial: InterstitialAsset?
    }

    /// An interstitial's asset: `X-ASSET-URI` or `X-ASSET-LIST`; valid when it has exactly one of them.
    struct InterstitialAsset: Codable {
        var assetURI: String?
        var assetListURI: String?
        var valid: Bool

        init(_ interstitial: Interstitial) {
            assetURI = interstitial.assetURI
            assetListURI = interstitial.assetList
            valid = interstitial.isValid
        }

        /// The asset as the text report prints it.
        var text: String {
            (assetListURI.map { "asset list \($0)" } ?? assetURI.map { "asset \($0)" } ?? "no asset")
                + (valid ? "" : " (invalid: needs exactly one of X-ASSET-URI and X-ASSET-LIST)")
        }
    }

    /// A SCTE-35 message carried by a cue tag of a segment (`EXT-X-CUE-OUT` `CUE=`, `EXT-X-CUE-OUT-CONT` `SCTE35=`,
    /// `EXT-OATCLS-SCTE35`, `EXT-X-SPLICEPOINT-SCTE35`).
    struct CueMessage: Codable {
        var mediaSequence: Int
        /// Where the segment starts on the playlist's timeline.
        var startSeconds: Double
        var tag: String
        var scte35: SCTE35Report
    }

    struct AdBreak: Codable {
        var id: String
        /// Which signal it came from: `daterange-scte35`, `cue-out/cue-in`, `interstitial`…
        var source: String
        /// Where it starts on the playlist's timeline.
        var startSeconds: Double?
        var startDate: String?
        var durationSeconds: Double?
        var closed: Bool
        var scte35: SCTE35Report?
    }

    var schemaVersion = InspectJSON.schemaVersion
    var source: String
    var bytes: Int
    /// `multivariant` or `media`.
    var kind: String
    var version: Int?
    var start: Start?
    var variants: [Variant] = []
    var iFrameVariants: [IFrameVariant] = []
    var renditions: [Rendition] = []
    var sessionData: [SessionDataEntry] = []
    var contentSteering: Steering?
    var playlistType: String?
    var targetDurationSeconds: Int?
    var mediaSequence: Int?
    var segmentCount: Int?
    var totalDurationSeconds: Double?
    var finished: Bool?
    /// Whether the playlist has `EXT-X-ENDLIST` (a VOD playlist without it is finished all the same).
    var hasEndList: Bool?
    var firstDate: String?
    var lastDate: String?
    var discontinuities: Int?
    var gaps: Int?
    var byteRangeSegments: Int?
    var keys: [KeyRange] = []
    var maps: [MapRange] = []
    var lowLatency: LowLatency?
    var dateRanges: [DateRangeSummary] = []
    var adBreaks: [AdBreak] = []
    var cueMessages: [CueMessage] = []
    var interstitials: [InterstitialSummary] = []
    var unknownTags: [String] = []
    var problems: [String]
    /// Why nothing in the playlist can be played, when that is so.
    var unusable: String?
    /// Every segment (JSON only).
    var segments: [SegmentReport]?

    init(_ outcome: PlaylistParser.Outcome, source: String, size: Int, includesSegments: Bool = false) {
        self.source = source
        self.bytes = size
        self.problems = outcome.warnings.map(\.description)
        switch outcome.playlist {
        case .multivariant(let playlist):
            kind = "multivariant"
            version = playlist.version
            start = playlist.start.map(Start.init)
            variants = playlist.variants.map {
                Variant(uri: $0.uri, bandwidthBitsPerSecond: $0.bandwidth, averageBandwidthBitsPerSecond: $0.averageBandwidth,
                        resolution: $0.resolution, codecs: $0.codecs, framesPerSecond: $0.frameRate,
                        videoRange: $0.stream.videoRange, hdcpLevel: $0.stream.hdcpLevel, audioGroup: $0.audio,
                        subtitlesGroup: $0.subtitles, pathwayID: $0.stream.pathwayID)
            }
            iFrameVariants = playlist.iFrameVariants.map {
                IFrameVariant(uri: $0.uri, bandwidthBitsPerSecond: $0.stream.bandwidth, resolution: $0.stream.resolution,
                              codecs: $0.stream.codecs)
            }
            renditions = playlist.renditions.map {
                Rendition(type: $0.type.rawValue, group: $0.groupID, name: $0.name, language: $0.language, uri: $0.uri,
                          isDefault: $0.isDefault)
            }
            sessionData = playlist.sessionData.map {
                SessionDataEntry(dataID: $0.dataID, value: $0.value, uri: $0.uri, format: $0.format, language: $0.language)
            }
            if let steering = playlist.contentSteering {
                var pathways: [String: [String]] = [:]
                for variant in playlist.variants { pathways[variant.stream.pathwayID ?? ".", default: []].append(variant.uri) }
                contentSteering = Steering(serverURI: steering.serverURI, pathwayID: steering.pathwayID, pathways: pathways)
            }
            unknownTags = playlist.unknownTags.map(\.line)
            if playlist.variants.isEmpty { unusable = "the multivariant playlist has no usable variant stream" }
        case .media(let playlist):
            kind = "media"
            version = playlist.version
            start = playlist.start.map(Start.init)
            playlistType = playlist.playlistType?.rawValue
            targetDurationSeconds = playlist.targetDuration
            mediaSequence = playlist.mediaSequence
            segmentCount = playlist.segments.count
            let mediaSegments = playlist.segments
            if mediaSegments.indices.allSatisfy({ mediaSegments[$0].tags.isGap }) {
                unusable = playlist.segments.isEmpty ? "the media playlist has no segments"
                    : "every segment of the media playlist is a gap"
            }
            totalDurationSeconds = playlist.duration.seconds
            finished = playlist.isFinished
            hasEndList = playlist.hasEndList
            let map = ProgramDateTimeMap(playlist)
            firstDate = map.dateRange?.lowerBound.writableISO8601Milliseconds
            lastDate = map.dateRange?.upperBound.writableISO8601Milliseconds
            let details = SegmentDetails(playlist, dates: map, includesSegments: includesSegments)
            discontinuities = details.discontinuities
            gaps = details.gaps
            byteRangeSegments = details.byteRangeSegments
            keys = details.keys
            maps = details.maps
            segments = includesSegments ? details.segments : nil
            lowLatency = LowLatency(playlist)
            // Gathered from the segments once (the property walks every segment each time it is read).
            let allDateRanges = playlist.dateRanges
            // Tags with one ID are one range (RFC 8216bis §4.4.5.1): listed once, with every tag's attributes.
            let mergedDateRanges = DateRange.merged(allDateRanges)
            dateRanges = mergedDateRanges.map { range in
                DateRangeSummary(
                    id: range.id, classIdentifier: range.classIdentifier, startDate: range.startDate.iso8601Milliseconds,
                    durationSeconds: (range.duration ?? range.endDate.map { $0 - range.startDate })?.seconds,
                    plannedDurationSeconds: range.plannedDuration?.seconds,
                    scte35: (range.scte35Out ?? range.scte35In ?? range.scte35Command).map(SCTE35Report.init(encoded:)),
                    scte35Out: range.scte35Out.map(SCTE35Report.init(encoded:)),
                    scte35In: range.scte35In.map(SCTE35Report.init(encoded:)),
                    scte35Command: range.scte35Command.map(SCTE35Report.init(encoded:)),
                    interstitial: range.interstitial.map(InterstitialAsset.init))
            }
            interstitials = mergedDateRanges.compactMap { range in
                range.interstitial.map { InterstitialSummary(range, $0, dates: map) }
            }
            problems += interstitials.flatMap { summary in summary.problems.map { "interstitial \(summary.id): \($0)" } }
            let signals = playlist.adBreaks(dates: map, dateRanges: allDateRanges)  // with what is already gathered
            adBreaks = signals.map { signal in
                var scte35: SCTE35Report?
                if let section = signal.scte35 {
                    scte35 = SCTE35Report(section, encoded: nil)
                } else if let error = signal.scte35Error {
                    scte35 = SCTE35Report(summary: "undecodable: \(error)", encoded: nil, error: "\(error)")
                }
                return AdBreak(id: signal.id, source: signal.source.rawValue, startSeconds: signal.startTime?.seconds,
                               startDate: signal.startDate?.writableISO8601Milliseconds, durationSeconds: signal.duration?.seconds,
                               closed: signal.isClosed, scte35: scte35)
            }
            cueMessages = Self.cueMessages(in: playlist)
            for message in cueMessages where message.scte35.error != nil {
                problems.append("segment \(message.mediaSequence): \(message.tag) cannot be decoded: \(message.scte35.error ?? "")")
            }
            for range in dateRanges where range.scte35?.error != nil {
                problems.append("date range \(range.id): its SCTE-35 message cannot be decoded: \(range.scte35?.error ?? "")")
            }
            // A break still open at the live edge is a break in progress, not a problem.
            for signal in signals where !signal.isClosed && playlist.isFinished {
                problems.append("ad break \(signal.id) has no end signal")
            }
            unknownTags = playlist.unknownTags.map(\.line)
            for index in mediaSegments.indices
            where mediaSegments[index].tags.mayHaveRareTags && !mediaSegments[index].tags.unknownTags.isEmpty {
                unknownTags += mediaSegments[index].tags.unknownTags.map(\.line)
            }
        }
    }

    /// Every SCTE-35 message the segments' cue tags carry, decoded.
    static func cueMessages(in playlist: MediaPlaylist) -> [CueMessage] {
        var messages: [CueMessage] = []
        let segments = playlist.segments
        for index in segments.indices where segments[index].tags.mayHaveRareTags {
            let segment = segments[index]
            func add(_ tag: String, _ encoded: String?) {
                guard let encoded else { return }
                messages.append(CueMessage(mediaSequence: segment.mediaSequence, startSeconds: segment.startTime.seconds, tag: tag,
                                           scte35: SCTE35Report(encoded: encoded)))
            }
            add("EXT-X-CUE-OUT", segment.tags.cueOut?.scte35)
            add("EXT-X-CUE-OUT-CONT", segment.tags.cueOutContinuation?.scte35)
            add("EXT-OATCLS-SCTE35", segment.tags.oatclsSCTE35)
            for tag in segment.tags.unknownTags where tag.name == "#EXT-X-SPLICEPOINT-SCTE35" {
                add("EXT-X-SPLICEPOINT-SCTE35", String(tag.line.dropFirst("#EXT-X-SPLICEPOINT-SCTE35:".count)))
            }
        }
        return messages
    }

    static func describe(_ section: SpliceInfoSection) -> String {
        // One string, its parts separated by commas (written for thousands of messages: no array of parts).
        var text = section.command.name
        text.reserveCapacity(96)
        if case .spliceInsert(let insert) = section.command {
            text += ", event " + String(insert.eventID)
            text += insert.isOutOfNetwork ? ", out" : ", in"
            if let duration = insert.breakDuration { text += ", break " + fixed(duration.seconds, 3) + " s" }
        }
        // pts_time as written, and pts_adjustment apart (the splice happens at their sum, modulo 2^33).
        if let pts = section.ptsTime {
            text += ", pts_time " + fixed(Double(pts) / 90_000, 6) + " s"
            if section.ptsAdjustment != 0, let time = section.adjustedSpliceTime {
                text += ", pts_adjustment " + fixed(Double(section.ptsAdjustment) / 90_000, 6) + " s (splice at "
                    + fixed(time.seconds, 6) + " s)"
            }
        }
        for descriptor in section.segmentationDescriptors {
            let hex = "0x" + String(descriptor.typeID, radix: 16)
            text += ", " + descriptor.typeName
            if !descriptor.typeName.contains(hex) { text += " (" + hex + ")" }
            text += " upid " + descriptor.upid.description
            if let seconds = descriptor.durationSeconds { text += " " + fixed(seconds, 3) + " s" }
        }
        return text
    }
}
