import PlaytraceCore

/// The end of a parse: the playlist completed and checked (rendition groups, durations), its warnings in order.
extension ParserState {
    mutating func finish() throws(PlaylistParseError) -> PlaylistParser.Outcome {
        if sawMultivariantTag {
            if hasPendingVariant {
                hasPendingVariant = false
                multivariant.variants.removeLast()
                try recover(PlaylistParseError(line: pendingVariantLine, reason: .missingVariantURI))
            }
            if multivariant.variants.isEmpty { try diagnose(PlaylistParseError(line: line, reason: .missingVariants)) }
            multivariant.version = media.version
            multivariant.hasIndependentSegments = media.hasIndependentSegments
            multivariant.start = media.start
            multivariant.definitions = media.definitions
            multivariant.unknownTags = media.unknownTags + pending.unknownTags
            checkRenditionGroups()
            return PlaylistParser.Outcome(playlist: .multivariant(multivariant), warnings: sortedWarnings(),
                                          variables: variables, unusable: unusable)
        }
        if !hasTargetDuration {
            try diagnose(PlaylistParseError(line: line, reason: .missingTargetDuration))
            // What it should have said (RFC 8216bis §4.4.3.1): the longest segment, rounded.
            media.targetDuration = Int(saturating: segments.map(\.duration).max() ?? 0)
        }
        if pendingDuration != nil {
            warnings.append(PlaylistWarning(line: pendingInfLine, message: "#EXTINF is not followed by a URI"))
        }
        if media.playlistType == .vod, !media.hasEndList {
            warnings.append(PlaylistWarning(line: line, message: "a VOD playlist lacks #EXT-X-ENDLIST"))
        }
        var knownTrailing = pending
        knownTrailing.unknownTags = []
        if segments.isEmpty, knownTrailing.isEmpty {
            // Without segments or known trailing tags nothing tells header from trailer: keep them in the header.
            media.unknownTags += pending.unknownTags
            pending.unknownTags = []
        }
        if let window = options.keepingLastSegments, segments.count > window, media.playlistType != .vod {
            leaveOutOldestSegments(segments.count - window)
        }
        if windowCarry.leftOut > 0 {
            media.mediaSequence += windowCarry.leftOut
            media.discontinuitySequence += windowCarry.discontinuities
            compactURIs()
            warnings.append(PlaylistWarning(line: segmentLines.first ?? line, message: "the first \(windowCarry.leftOut) "
                + "segments are left out: only the last \(segments.count) are kept"))
        }
        media.segments = segments
        segments = []  // so that renumbering mutates the only copy
        media.trailingTags = pending
        media.renumber()
        checkDurations()
        return PlaylistParser.Outcome(playlist: .media(media), warnings: sortedWarnings(), variables: variables,
                                      unusable: unusable)
    }

    /// The warnings in line order (those found at the end were appended last); equal lines keep their order.
    private func sortedWarnings() -> [PlaylistWarning] {
        var isSorted = true
        for index in warnings.indices.dropFirst() where warnings[index - 1].line > warnings[index].line {
            isSorted = false
            break
        }
        if isSorted { return warnings }
        return warnings.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }
            .map(\.element)
    }

    /// Groups that a variant names (`AUDIO`, `VIDEO`, `SUBTITLES`, `CLOSED-CAPTIONS`) but no rendition defines.
    private mutating func checkRenditionGroups() {
        var audio = GroupReferenceCheck(type: .audio, attribute: "AUDIO")
        var video = GroupReferenceCheck(type: .video, attribute: "VIDEO")
        var subtitles = GroupReferenceCheck(type: .subtitles, attribute: "SUBTITLES")
        var captions = GroupReferenceCheck(type: .closedCaptions, attribute: "CLOSED-CAPTIONS")
        for rendition in multivariant.renditions {
            switch rendition.type {
            case .audio: audio.define(rendition.groupID)
            case .video: video.define(rendition.groupID)
            case .subtitles: subtitles.define(rendition.groupID)
            case .closedCaptions: captions.define(rendition.groupID)
            }
        }
        for (index, variant) in multivariant.variants.enumerated() {
            let line = index < variantLines.count ? variantLines[index] : 0
            audio.check(variant.audio, line: line, into: &warnings)
            video.check(variant.stream.video, line: line, into: &warnings)
            subtitles.check(variant.subtitles, line: line, into: &warnings)
            captions.check(variant.closedCaptions, line: line, into: &warnings)
        }
    }

    private mutating func checkDurations() {
        let target = Double(media.targetDuration)
        var longest: Int?
        var sawDate = false
        var date: StreamDate?
        var dateProblemSaid = false
        for index in media.segments.indices {
            // Each segment's date, said or carried from the one before: past what ISO 8601 writes, it is listed once.
            date = media.segments[index].tags.programDateTime
                ?? date.map { $0 + MediaTime(seconds: media.segments[index - 1].duration) }
            if let date, !dateProblemSaid, !(date + MediaTime(seconds: media.segments[index].duration)).isWritable {
                dateProblemSaid = true
                warnings.append(PlaylistWarning(line: segmentLines[index], message: "segment "
                    + "\(media.segments[index].mediaSequence)'s program date-time runs outside years 0000 to 9999"))
            }
            if media.segments[index].duration.rounded() > target,
               longest.map({ media.segments[index].duration > media.segments[$0].duration }) ?? true {
                longest = index
            }
            if media.segments[index].tags.programDateTime != nil {
                sawDate = true
            } else if sawDate && media.segments[index].tags.isDiscontinuity {
                warnings.append(PlaylistWarning(
                    line: segmentLines[index],
                    message: "segment \(media.segments[index].mediaSequence) follows a discontinuity without #EXT-X-PROGRAM-DATE-TIME"))
            }
        }
        if let longest {
            let segment = media.segments[longest]
            warnings.append(PlaylistWarning(
                line: segmentLines[longest],
                message: "segment \(segment.mediaSequence) lasts \(segment.duration) s, more than the target duration \(media.targetDuration) s"))
        }
    }
}

/// Checks that the rendition groups variants name are defined, reporting each undefined group once.
private struct GroupReferenceCheck {
    let type: Rendition.MediaType
    let attribute: String
    private var defined: Set<String> = []
    private var reported: Set<String> = []

    init(type: Rendition.MediaType, attribute: String) {
        self.type = type
        self.attribute = attribute
    }

    mutating func define(_ group: String) { defined.insert(group) }

    mutating func check(_ group: String?, line: Int, into warnings: inout [PlaylistWarning]) {
        guard let group, !defined.contains(group), reported.insert(group).inserted else { return }
        warnings.append(PlaylistWarning(
            line: line,
            message: "\(attribute)=\"\(group)\" names a group that no #EXT-X-MEDIA of TYPE=\(type.rawValue) defines"))
    }
}
