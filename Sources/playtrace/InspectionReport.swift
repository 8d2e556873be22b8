import PlaytraceCore
import PlaytraceHLS

/// What `playtrace inspect` reports, as text lines or JSON.
struct InspectionReport: Codable {
    struct Variant: Codable {
        var uri: String
        var bandwidth: Int
        var averageBandwidth: Int?
        var resolution: String?
        var codecs: [String]
        var frameRate: Double?
        var audio: String?
        var subtitles: String?
    }

    struct Rendition: Codable {
        var type: String
        var group: String
        var name: String
        var language: String?
        var uri: String?
        var isDefault: Bool
    }

    struct DateRangeSummary: Codable {
        var id: String
        var classIdentifier: String?
        var startDate: String
        var duration: Double?
        var plannedDuration: Double?
        var scte35: String?
        var interstitial: String?
    }

    struct AdBreak: Codable {
        var id: String
        var source: String
        var start: Double?
        var startDate: String?
        var duration: Double?
        var closed: Bool
        var scte35: String?
    }

    var source: String
    var bytes: Int
    var kind: String
    var version: Int?
    var variants: [Variant] = []
    var iFrameVariants = 0
    var renditions: [Rendition] = []
    var sessionData: [String] = []
    var playlistType: String?
    var targetDuration: Int?
    var mediaSequence: Int?
    var segments: Int?
    var totalDuration: Double?
    var finished: Bool?
    var firstDate: String?
    var lastDate: String?
    var discontinuities: Int?
    var dateRanges: [DateRangeSummary] = []
    var adBreaks: [AdBreak] = []
    var unknownTags: [String] = []
    var problems: [String]
    /// Why nothing in the playlist can be played, when that is so.
    var unusable: String?

    init(_ outcome: PlaylistParser.Outcome, source: String, size: Int) {
        self.source = source
        self.bytes = size
        self.problems = outcome.warnings.map(\.description)
        switch outcome.playlist {
        case .multivariant(let playlist):
            kind = "multivariant"
            version = playlist.version
            variants = playlist.variants.map {
                Variant(uri: $0.uri, bandwidth: $0.bandwidth, averageBandwidth: $0.averageBandwidth,
                        resolution: $0.resolution?.description, codecs: $0.codecs, frameRate: $0.frameRate,
                        audio: $0.audio, subtitles: $0.subtitles)
            }
            iFrameVariants = playlist.iFrameVariants.count
            renditions = playlist.renditions.map {
                Rendition(type: $0.type.rawValue, group: $0.groupID, name: $0.name, language: $0.language, uri: $0.uri,
                          isDefault: $0.isDefault)
            }
            sessionData = playlist.sessionData.map { "\($0.dataID)=\($0.value ?? $0.uri ?? "")" }
            if playlist.variants.isEmpty { unusable = "the multivariant playlist has no usable variant stream" }
            unknownTags = playlist.unknownTags.map(\.line)
        case .media(let playlist):
            kind = "media"
            version = playlist.version
            playlistType = playlist.playlistType?.rawValue
            targetDuration = playlist.targetDuration
            mediaSequence = playlist.mediaSequence
            segments = playlist.segments.count
            if playlist.segments.allSatisfy(\.tags.isGap) {
                unusable = playlist.segments.isEmpty ? "the media playlist has no segments"
                    : "every segment of the media playlist is a gap"
            }
            totalDuration = playlist.duration.seconds
            finished = playlist.isFinished
            discontinuities = playlist.segments.filter(\.tags.isDiscontinuity).count
            let map = ProgramDateTimeMap(playlist)
            firstDate = map.dateRange?.lowerBound.iso8601Milliseconds
            lastDate = map.dateRange?.upperBound.iso8601Milliseconds
            dateRanges = playlist.dateRanges.map { range in
                DateRangeSummary(
                    id: range.id, classIdentifier: range.classIdentifier, startDate: range.startDate.iso8601Milliseconds,
                    duration: range.duration?.seconds, plannedDuration: range.plannedDuration?.seconds,
                    scte35: (range.scte35Out ?? range.scte35In ?? range.scte35Command).map(Self.describeSCTE35),
                    interstitial: range.interstitial.map { interstitial in
                        (interstitial.assetList.map { "asset list \($0)" } ?? interstitial.assetURI.map { "asset \($0)" } ?? "no asset")
                            + (interstitial.isValid ? "" : " (invalid: needs exactly one of X-ASSET-URI and X-ASSET-LIST)")
                    })
            }
            adBreaks = playlist.adBreaks.map { signal in
                AdBreak(id: signal.id, source: signal.source.rawValue, start: signal.startTime?.seconds,
                        startDate: signal.startDate?.iso8601Milliseconds, duration: signal.duration?.seconds, closed: signal.isClosed,
                        scte35: signal.scte35.map(Self.describe) ?? signal.scte35Error.map { "undecodable: \($0)" })
            }
            // A break still open at the live edge is a break in progress, not a problem.
            for signal in playlist.adBreaks where !signal.isClosed && playlist.isFinished {
                problems.append("ad break \(signal.id) has no end signal")
            }
            unknownTags = (playlist.unknownTags + playlist.segments.flatMap(\.tags.unknownTags)).map(\.line)
        }
    }

    static func describeSCTE35(_ encoded: String) -> String {
        do { return describe(try SpliceInfoSection(encoded: encoded)) } catch { return "undecodable: \(error)" }
    }

    static func describe(_ section: SpliceInfoSection) -> String {
        var parts = [section.command.name]
        if case .spliceInsert(let insert) = section.command {
            parts.append("event \(insert.eventID)")
            parts.append(insert.isOutOfNetwork ? "out" : "in")
            if let duration = insert.breakDuration { parts.append(String(format: "break %.3f s", duration.seconds)) }
        }
        if let time = section.adjustedSpliceTime { parts.append(String(format: "pts %.6f s", time.seconds)) }
        for descriptor in section.segmentationDescriptors {
            let hex = "0x\(String(descriptor.typeID, radix: 16))"
            var text = (descriptor.typeName.contains(hex) ? descriptor.typeName : "\(descriptor.typeName) (\(hex))")
                + " upid \(descriptor.upid)"
            if let seconds = descriptor.durationSeconds { text += String(format: " %.3f s", seconds) }
            parts.append(text)
        }
        return parts.joined(separator: ", ")
    }

    var lines: [String] {
        var out = ["\(source): \(kind) playlist, \(bytes) bytes" + (version.map { ", version \($0)" } ?? "")]
        if kind == "multivariant" {
            out.append("variants (\(variants.count)):")
            for variant in variants {
                out.append("  \(variant.bandwidth) bit/s" + (variant.resolution.map { "  \($0)" } ?? "")
                    + (variant.codecs.isEmpty ? "" : "  " + variant.codecs.joined(separator: ",")) + "  \(variant.uri)")
            }
            if iFrameVariants > 0 { out.append("I-frame variants: \(iFrameVariants)") }
            if !renditions.isEmpty {
                out.append("renditions (\(renditions.count)):")
                for rendition in renditions {
                    out.append("  \(rendition.type) \(rendition.group) \"\(rendition.name)\"" + (rendition.language.map { " \($0)" } ?? "")
                        + (rendition.isDefault ? " default" : ""))
                }
            }
            for data in sessionData { out.append("session data: \(data)") }
        } else {
            out.append("segments: \(segments ?? 0), total \(String(format: "%.3f", totalDuration ?? 0)) s, target \(targetDuration ?? 0) s, media sequence \(mediaSequence ?? 0)"
                + (playlistType.map { ", type \($0)" } ?? "") + ((finished ?? false) ? ", ended" : ", live"))
            if let firstDate, let lastDate { out.append("dates: \(firstDate) → \(lastDate)") }
            if let discontinuities, discontinuities > 0 { out.append("discontinuities: \(discontinuities)") }
            if !dateRanges.isEmpty {
                out.append("date ranges (\(dateRanges.count)):")
                for range in dateRanges {
                    var line = "  \(range.id)  \(range.startDate)"
                    if let duration = range.duration ?? range.plannedDuration { line += String(format: "  %.3f s", duration) }
                    if let classIdentifier = range.classIdentifier { line += "  class \(classIdentifier)" }
                    if let interstitial = range.interstitial { line += "  interstitial: \(interstitial)" }
                    out.append(line)
                    if let scte35 = range.scte35 { out.append("      SCTE-35: \(scte35)") }
                }
            }
            out.append("ad breaks (\(adBreaks.count)):")
            for adBreak in adBreaks {
                var line = "  \(adBreak.id)  \(adBreak.source)"
                if let start = adBreak.start { line += String(format: "  at %.3f s", start) }
                if let duration = adBreak.duration { line += String(format: "  for %.3f s", duration) }
                if !adBreak.closed { line += "  (open)" }
                out.append(line)
                if let scte35 = adBreak.scte35 { out.append("      SCTE-35: \(scte35)") }
            }
        }
        if !unknownTags.isEmpty { out.append("unknown tags kept: \(unknownTags.count)") }
        out.append(problems.isEmpty ? "problems: none" : "problems (\(problems.count)):")
        for problem in problems { out.append("  \(problem)") }
        return out
    }
}
