import PlaytraceCore
import PlaytraceHLS

extension InspectionReport {
    /// One segment, as `--json` lists them.
    struct SegmentReport: Codable {
        var sequence: Int
        var uri: String
        var duration: Double
        var start: Double
        var date: String?
        var discontinuity: Bool?
        var gap: Bool?
        var byteRange: String?
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
        var byteRange: String?
        var firstSequence: Int
        var lastSequence: Int
    }

    /// Low-latency HLS: partial segments, server control, preload hints, rendition reports, a delta update's skip.
    struct LowLatency: Codable {
        var partTarget: Double?
        var parts: Int
        var serverControl: ServerControl?
        var preloadHints: [PreloadHint]
        var renditionReports: [RenditionReport]
        var skip: SkipInformation?

        init?(_ playlist: MediaPlaylist) {
            partTarget = playlist.partInformation?.partTarget
            let segments = playlist.segments
            parts = segments.indices.reduce(0) { count, index in
                segments[index].tags.mayHaveRareTags ? count + segments[index].tags.parts.count : count
            } + playlist.trailingTags.parts.count
            serverControl = playlist.serverControl
            preloadHints = playlist.preloadHints
            renditionReports = playlist.renditionReports
            skip = playlist.skip
            if partTarget == nil, parts == 0, serverControl == nil, preloadHints.isEmpty, renditionReports.isEmpty,
               skip == nil { return nil }
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
                        maps.append(MapRange(uri: section.uri, byteRange: section.byteRange?.serialized,
                                             firstSequence: sequence, lastSequence: sequence))
                        map = maps.count - 1
                    }
                }
                if let key { keys[key].lastSequence = sequence }
                if let map { maps[map].lastSequence = sequence }
                guard includesSegments else { continue }
                let segment = all[index]
                segments.append(SegmentReport(
                    sequence: sequence, uri: segment.uri, duration: segment.duration, start: segment.startTime.seconds,
                    date: dateBySegment[index]?.iso8601Milliseconds,
                    discontinuity: segment.tags.isDiscontinuity ? true : nil, gap: segment.tags.isGap ? true : nil,
                    byteRange: segment.resolvedByteRange?.serialized, key: key, map: map,
                    parts: segment.tags.parts.isEmpty ? nil : segment.tags.parts.count))
            }
        }
    }
}
