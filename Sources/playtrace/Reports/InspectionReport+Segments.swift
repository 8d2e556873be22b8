import PlaytraceCore
import PlaytraceHLS

extension InspectionReport {
    /// One segment, as `--json` lists them.
    struct SegmentReport: Codable {
        var sequence: Int
        var uri: String
        var durationSeconds: Double
        /// Where it starts on the playlist's timeline.
        var startSeconds: Double
        var date: String?
        var discontinuity: Bool?
        var gap: Bool?
        /// Its byte range, the offset resolved when the playlist leaves it implicit.
        var byteRange: ByteRange?
        /// The index in ``InspectionReport/keys`` of the key in effect.
        var key: Int?
        /// The index in ``InspectionReport/maps`` of the initialization section in effect.
        var map: Int?
        var parts: Int?
    }

    /// A key (`EXT-X-KEY`) and the segments it applies to.
    struct KeyRange: Codable {
        var method: String
        var uri: String?
        var iv: String?
        var keyFormat: String?
        var firstSequence: Int
        var lastSequence: Int
    }

    /// An initialization section (`EXT-X-MAP`) and the segments it applies to.
    struct MapRange: Codable {
        var uri: String
        var byteRange: ByteRange?
        var firstSequence: Int
        var lastSequence: Int
    }

    /// Low-latency HLS: partial segments, server control, preload hints, rendition reports, a delta update's skip.
    struct LowLatency: Codable {
        var partTargetSeconds: Double?
        var parts: Int
        var serverControl: ServerControlReport?
        var preloadHints: [PreloadHint]
        var renditionReports: [RenditionReport]
        var skip: SkipInformation?

        init?(_ playlist: MediaPlaylist) {
            partTargetSeconds = playlist.partInformation?.partTarget
            let segments = playlist.segments
            parts = segments.indices.reduce(0) { count, index in
                segments[index].tags.mayHaveRareTags ? count + segments[index].tags.parts.count : count
            } + playlist.trailingTags.parts.count
            serverControl = playlist.serverControl.map(ServerControlReport.init)
            preloadHints = playlist.preloadHints
            renditionReports = playlist.renditionReports
            skip = playlist.skip
            if partTargetSeconds == nil, parts == 0, serverControl == nil, preloadHints.isEmpty, renditionReports.isEmpty,
               skip == nil { return nil }
        }
    }

    /// `EXT-X-SERVER-CONTROL`: what the server offers a low-latency or delta-updating client.
    struct ServerControlReport: Codable {
        var canBlockReload: Bool
        /// `CAN-SKIP-UNTIL`: how far from the live edge a delta update may skip segments.
        var canSkipUntilSeconds: Double?
        var canSkipDateRanges: Bool
        var holdBackSeconds: Double?
        var partHoldBackSeconds: Double?

        init(_ control: ServerControl) {
            canBlockReload = control.canBlockReload
            canSkipUntilSeconds = control.canSkipUntil
            canSkipDateRanges = control.canSkipDateRanges
            holdBackSeconds = control.holdBack
            partHoldBackSeconds = control.partHoldBack
        }
    }

    /// The key and map ranges of a media playlist, its counts, and its segments, in one pass.
    struct SegmentDetails {
        var discontinuities = 0
        var gaps = 0
        var byteRangeSegments = 0
        var keys: [KeyRange] = []
        var maps: [MapRange] = []
        var segments: [SegmentReport] = []

        init(_ playlist: MediaPlaylist, dates: ProgramDateTimeMap, includesSegments: Bool) {
            var dateBySegment: [Int: StreamDate] = [:]
            if includesSegments { for entry in dates.entries { dateBySegment[entry.segmentIndex] = entry.startDate } }
            var key: Int?
            var map: Int?
            if includesSegments { segments.reserveCapacity(playlist.segments.count) }
            // Fields read in place, without copying each segment.
            let all = playlist.segments
            for index in all.indices {
                let sequence = all[index].mediaSequence
                if all[index].tags.isDiscontinuity { discontinuities += 1 }
                if all[index].tags.isGap { gaps += 1 }
                if all[index].byteRange != nil { byteRangeSegments += 1 }
                // Keys and maps are rare tags: a segment without any is not read for them.
                if all[index].tags.mayHaveRareTags {
                    if let last = all[index].tags.keys.last {
                        if last.method == .none {
                            key = nil
                        } else {
                            keys.append(KeyRange(method: last.method.rawValue, uri: last.uri, iv: last.iv,
                                                 keyFormat: last.keyFormat, firstSequence: sequence,
                                                 lastSequence: sequence))
                            key = keys.count - 1
                        }
                    }
                    if let section = all[index].tags.map {
                        maps.append(MapRange(uri: section.uri, byteRange: section.byteRange,
                                             firstSequence: sequence, lastSequence: sequence))
                        map = maps.count - 1
                    }
                }
                if let key { keys[key].lastSequence = sequence }
                if let map { maps[map].lastSequence = sequence }
                guard includesSegments else { continue }
                let segment = all[index]
                segments.append(SegmentReport(
                    sequence: sequence, uri: segment.uri, durationSeconds: segment.duration,
                    startSeconds: segment.startTime.seconds,
                    date: dateBySegment[index]?.writableISO8601Milliseconds,
                    discontinuity: segment.tags.isDiscontinuity ? true : nil, gap: segment.tags.isGap ? true : nil,
                    byteRange: segment.resolvedByteRange, key: key, map: map,
                    parts: segment.tags.parts.isEmpty ? nil : segment.tags.parts.count))
            }
        }
    }
}
