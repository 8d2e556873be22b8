import PlaytraceCore

/// Writes playlists as HLS text. What ``PlaylistParser`` reads, the writer writes back: parsing the output gives
/// the same model (unknown tags included). Tags come out in a canonical order.
///
/// ```swift
/// let text = PlaylistWriter().write(.media(playlist))
/// ```
public struct PlaylistWriter: Sendable {
    /// Creates a writer.
    public init() {}

    /// The playlist as text, with a final line break.
    public func write(_ playlist: Playlist) -> String {
        switch playlist {
        case .multivariant(let multivariant): return write(multivariant)
        case .media(let media): return write(media)
        }
    }

    /// A multivariant playlist as text.
    public func write(_ playlist: MultivariantPlaylist) -> String {
        var out = "#EXTM3U\n"
        if let version = playlist.version { out += "#EXT-X-VERSION:\(version)\n" }
        if playlist.hasIndependentSegments { out += "#EXT-X-INDEPENDENT-SEGMENTS\n" }
        if let start = playlist.start { out += startLine(start) }
        for definition in playlist.definitions { out += defineLine(definition) }
        for tag in playlist.unknownTags { out += tag.line + "\n" }
        if let steering = playlist.contentSteering {
            var list = AttributeList()
            list.append("SERVER-URI", .quoted(steering.serverURI))
            if let pathway = steering.pathwayID { list.append("PATHWAY-ID", .quoted(pathway)) }
            out += "#EXT-X-CONTENT-STEERING:" + list.serialized + "\n"
        }
        for data in playlist.sessionData {
            var list = AttributeList()
            list.append("DATA-ID", .quoted(data.dataID))
            if let value = data.value { list.append("VALUE", .quoted(value)) }
            if let uri = data.uri { list.append("URI", .quoted(uri)) }
            if let format = data.format { list.append("FORMAT", .unquoted(format)) }
            if let language = data.language { list.append("LANGUAGE", .quoted(language)) }
            out += "#EXT-X-SESSION-DATA:" + list.serialized + "\n"
        }
        for key in playlist.sessionKeys { out += "#EXT-X-SESSION-KEY:" + keyAttributes(key).serialized + "\n" }
        for rendition in playlist.renditions { out += "#EXT-X-MEDIA:" + renditionAttributes(rendition).serialized + "\n" }
        for variant in playlist.variants {
            var list = streamAttributes(variant.stream)
            if let frameRate = variant.frameRate { list.append("FRAME-RATE", .unquoted(formatDecimal(frameRate))) }
            if let audio = variant.audio { list.append("AUDIO", .quoted(audio)) }
            if let subtitles = variant.subtitles { list.append("SUBTITLES", .quoted(subtitles)) }
            if let captions = variant.closedCaptions {
                list.append("CLOSED-CAPTIONS", .quoted(captions))
            } else if variant.hasNoClosedCaptions {
                list.append("CLOSED-CAPTIONS", .unquoted("NONE"))
            }
            appendOthers(variant.otherAttributes, to: &list)
            out += "#EXT-X-STREAM-INF:" + list.serialized + "\n" + variant.uri + "\n"
        }
        for variant in playlist.iFrameVariants {
            var list = streamAttributes(variant.stream)
            list.append("URI", .quoted(variant.uri))
            appendOthers(variant.otherAttributes, to: &list)
            out += "#EXT-X-I-FRAME-STREAM-INF:" + list.serialized + "\n"
        }
        return out
    }

    /// A media playlist as text.
    public func write(_ playlist: MediaPlaylist) -> String {
        var out = "#EXTM3U\n"
        out.reserveCapacity(64 + playlist.segments.count * 80)
        if let version = playlist.version { out += "#EXT-X-VERSION:\(version)\n" }
        out += "#EXT-X-TARGETDURATION:\(playlist.targetDuration)\n"
        if let control = playlist.serverControl { out += serverControlLine(control) }
        if let info = playlist.partInformation {
            out += "#EXT-X-PART-INF:PART-TARGET=\(formatDecimal(info.partTarget))\n"
        }
        if playlist.mediaSequence != 0 { out += "#EXT-X-MEDIA-SEQUENCE:\(playlist.mediaSequence)\n" }
        if playlist.discontinuitySequence != 0 {
            out += "#EXT-X-DISCONTINUITY-SEQUENCE:\(playlist.discontinuitySequence)\n"
        }
        if let type = playlist.playlistType { out += "#EXT-X-PLAYLIST-TYPE:\(type.rawValue)\n" }
        if playlist.isIFramesOnly { out += "#EXT-X-I-FRAMES-ONLY\n" }
        if playlist.hasIndependentSegments { out += "#EXT-X-INDEPENDENT-SEGMENTS\n" }
        if let start = playlist.start { out += startLine(start) }
        for definition in playlist.definitions { out += defineLine(definition) }
        for tag in playlist.unknownTags { out += tag.line + "\n" }
        if let skip = playlist.skip {
            var list = AttributeList()
            list.append("SKIPPED-SEGMENTS", .unquoted(String(skip.skippedSegments)))
            if !skip.recentlyRemovedDateRanges.isEmpty {
                list.append("RECENTLY-REMOVED-DATERANGES", .quoted(skip.recentlyRemovedDateRanges.joined(separator: "\t")))
            }
            out += "#EXT-X-SKIP:" + list.serialized + "\n"
        }
        for segment in playlist.segments {
            writeTags(segment.tags, to: &out)
            if let range = segment.byteRange { out += "#EXT-X-BYTERANGE:" + range.serialized + "\n" }
            out += "#EXTINF:" + formatDecimal(segment.duration) + "," + segment.title + "\n"
            // Unknown tags go after EXTINF so that they are never read back as header tags.
            for tag in segment.tags.unknownTags { out += tag.line + "\n" }
            out += segment.uri + "\n"
        }
        writeTags(playlist.trailingTags, to: &out)
        for tag in playlist.trailingTags.unknownTags { out += tag.line + "\n" }
        for hint in playlist.preloadHints {
            var list = AttributeList()
            list.append("TYPE", .unquoted(hint.type))
            list.append("URI", .quoted(hint.uri))
            if let start = hint.byteRangeStart { list.append("BYTERANGE-START", .unquoted(String(start))) }
            if let length = hint.byteRangeLength { list.append("BYTERANGE-LENGTH", .unquoted(String(length))) }
            out += "#EXT-X-PRELOAD-HINT:" + list.serialized + "\n"
        }
        for report in playlist.renditionReports {
            var list = AttributeList()
            list.append("URI", .quoted(report.uri))
            if let msn = report.lastMediaSequence { list.append("LAST-MSN", .unquoted(String(msn))) }
            if let part = report.lastPart { list.append("LAST-PART", .unquoted(String(part))) }
            out += "#EXT-X-RENDITION-REPORT:" + list.serialized + "\n"
        }
        if playlist.hasEndList { out += "#EXT-X-ENDLIST\n" }
        return out
    }

    /// Writes the known tags of a segment or of the trailer (unknown tags are placed by the caller).
    private func writeTags(_ tags: SegmentTags, to out: inout String) {
        if tags.isDiscontinuity { out += "#EXT-X-DISCONTINUITY\n" }
        for key in tags.keys { out += "#EXT-X-KEY:" + keyAttributes(key).serialized + "\n" }
        if let map = tags.map {
            var list = AttributeList()
            list.append("URI", .quoted(map.uri))
            if let range = map.byteRange { list.append("BYTERANGE", .quoted(range.serialized)) }
            appendOthers(map.otherAttributes, to: &list)
            out += "#EXT-X-MAP:" + list.serialized + "\n"
        }
        if let date = tags.programDateTime { out += "#EXT-X-PROGRAM-DATE-TIME:" + date.iso8601 + "\n" }
        if let bitrate = tags.bitrate { out += "#EXT-X-BITRATE:\(bitrate)\n" }
        for range in tags.dateRanges { out += "#EXT-X-DATERANGE:" + dateRangeAttributes(range).serialized + "\n" }
        if let cue = tags.cueOut {
            if let raw = cue.rawValue {
                out += "#EXT-X-CUE-OUT:" + raw + "\n"
            } else if let duration = cue.duration {
                out += "#EXT-X-CUE-OUT:" + formatDecimal(duration.seconds) + "\n"
            } else {
                out += "#EXT-X-CUE-OUT\n"
            }
        }
        if let continuation = tags.cueOutContinuation {
            out += "#EXT-X-CUE-OUT-CONT:" + (continuation.rawValue ?? continuationText(continuation)) + "\n"
        }
        if tags.isCueIn { out += "#EXT-X-CUE-IN\n" }
        if let scte35 = tags.oatclsSCTE35 { out += "#EXT-OATCLS-SCTE35:" + scte35 + "\n" }
        if tags.isGap { out += "#EXT-X-GAP\n" }
        for part in tags.parts {
            var list = AttributeList()
            list.append("DURATION", .unquoted(formatDecimal(part.duration)))
            list.append("URI", .quoted(part.uri))
            if part.isIndependent { list.append("INDEPENDENT", .unquoted("YES")) }
            if let range = part.byteRange { list.append("BYTERANGE", .quoted(range.serialized)) }
            if part.isGap { list.append("GAP", .unquoted("YES")) }
            out += "#EXT-X-PART:" + list.serialized + "\n"
        }
    }

    private func continuationText(_ continuation: CueOutContinuation) -> String {
        var parts: [String] = []
        if let elapsed = continuation.elapsed { parts.append("ElapsedTime=" + formatDecimal(elapsed.seconds)) }
        if let duration = continuation.duration { parts.append("Duration=" + formatDecimal(duration.seconds)) }
        if let scte35 = continuation.scte35 { parts.append("SCTE35=" + scte35) }
        return parts.joined(separator: ",")
    }

    /// The attribute list of an `EXT-X-DATERANGE` tag.
    public func dateRangeAttributes(_ range: DateRange) -> AttributeList {
        var list = AttributeList()
        list.append("ID", .quoted(range.id))
        if let classIdentifier = range.classIdentifier { list.append("CLASS", .quoted(classIdentifier)) }
        list.append("START-DATE", .quoted(range.startDate.iso8601))
        if !range.cue.isEmpty {
            let words = [range.cue.contains(.pre) ? "PRE" : nil, range.cue.contains(.post) ? "POST" : nil,
                         range.cue.contains(.once) ? "ONCE" : nil].compactMap { $0 }
            list.append("CUE", .quoted(words.joined(separator: ",")))
        }
        if let end = range.endDate { list.append("END-DATE", .quoted(end.iso8601)) }
        if let duration = range.duration { list.append("DURATION", .unquoted(formatDecimal(duration.seconds))) }
        if let planned = range.plannedDuration {
            list.append("PLANNED-DURATION", .unquoted(formatDecimal(planned.seconds)))
        }
        if range.endOnNext { list.append("END-ON-NEXT", .unquoted("YES")) }
        if let command = range.scte35Command { list.append("SCTE35-CMD", .unquoted(command)) }
        if let out = range.scte35Out { list.append("SCTE35-OUT", .unquoted(out)) }
        if let scteIn = range.scte35In { list.append("SCTE35-IN", .unquoted(scteIn)) }
        appendOthers(range.clientAttributes, to: &list)
        return list
    }

    private func keyAttributes(_ key: EncryptionKey) -> AttributeList {
        var list = AttributeList()
        list.append("METHOD", .unquoted(key.method.rawValue))
        if let uri = key.uri { list.append("URI", .quoted(uri)) }
        if let iv = key.iv { list.append("IV", .unquoted(iv)) }
        if let format = key.keyFormat { list.append("KEYFORMAT", .quoted(format)) }
        if let versions = key.keyFormatVersions { list.append("KEYFORMATVERSIONS", .quoted(versions)) }
        appendOthers(key.otherAttributes, to: &list)
        return list
    }

    private func streamAttributes(_ stream: StreamAttributes) -> AttributeList {
        var list = AttributeList()
        list.append("BANDWIDTH", .unquoted(String(stream.bandwidth)))
        if let average = stream.averageBandwidth { list.append("AVERAGE-BANDWIDTH", .unquoted(String(average))) }
        if let score = stream.score { list.append("SCORE", .unquoted(formatDecimal(score))) }
        if !stream.codecs.isEmpty { list.append("CODECS", .quoted(stream.codecs.joined(separator: ","))) }
        if let supplemental = stream.supplementalCodecs { list.append("SUPPLEMENTAL-CODECS", .quoted(supplemental)) }
        if let resolution = stream.resolution { list.append("RESOLUTION", .unquoted(resolution.description)) }
        if let hdcp = stream.hdcpLevel { list.append("HDCP-LEVEL", .unquoted(hdcp)) }
        if let cpc = stream.allowedCPC { list.append("ALLOWED-CPC", .quoted(cpc)) }
        if let range = stream.videoRange { list.append("VIDEO-RANGE", .unquoted(range)) }
        if let layout = stream.requiredVideoLayout { list.append("REQ-VIDEO-LAYOUT", .quoted(layout)) }
        if let stable = stream.stableVariantID { list.append("STABLE-VARIANT-ID", .quoted(stable)) }
        if let video = stream.video { list.append("VIDEO", .quoted(video)) }
        if let pathway = stream.pathwayID { list.append("PATHWAY-ID", .quoted(pathway)) }
        return list
    }

    private func renditionAttributes(_ rendition: Rendition) -> AttributeList {
        var list = AttributeList()
        list.append("TYPE", .unquoted(rendition.type.rawValue))
        list.append("GROUP-ID", .quoted(rendition.groupID))
        list.append("NAME", .quoted(rendition.name))
        if let language = rendition.language { list.append("LANGUAGE", .quoted(language)) }
        if let associated = rendition.associatedLanguage { list.append("ASSOC-LANGUAGE", .quoted(associated)) }
        if let stable = rendition.stableRenditionID { list.append("STABLE-RENDITION-ID", .quoted(stable)) }
        if rendition.isDefault { list.append("DEFAULT", .unquoted("YES")) }
        if rendition.isAutoselect { list.append("AUTOSELECT", .unquoted("YES")) }
        if rendition.isForced { list.append("FORCED", .unquoted("YES")) }
        if let instream = rendition.instreamID { list.append("INSTREAM-ID", .quoted(instream)) }
        if let depth = rendition.bitDepth { list.append("BIT-DEPTH", .unquoted(String(depth))) }
        if let rate = rendition.sampleRate { list.append("SAMPLE-RATE", .unquoted(String(rate))) }
        if !rendition.characteristics.isEmpty {
            list.append("CHARACTERISTICS", .quoted(rendition.characteristics.joined(separator: ",")))
        }
        if let channels = rendition.channels { list.append("CHANNELS", .quoted(channels)) }
        if let uri = rendition.uri { list.append("URI", .quoted(uri)) }
        appendOthers(rendition.otherAttributes, to: &list)
        return list
    }

    private func serverControlLine(_ control: ServerControl) -> String {
        var list = AttributeList()
        if let until = control.canSkipUntil { list.append("CAN-SKIP-UNTIL", .unquoted(formatDecimal(until))) }
        if control.canSkipDateRanges { list.append("CAN-SKIP-DATERANGES", .unquoted("YES")) }
        if let holdBack = control.holdBack { list.append("HOLD-BACK", .unquoted(formatDecimal(holdBack))) }
        if let partHoldBack = control.partHoldBack {
            list.append("PART-HOLD-BACK", .unquoted(formatDecimal(partHoldBack)))
        }
        if control.canBlockReload { list.append("CAN-BLOCK-RELOAD", .unquoted("YES")) }
        return "#EXT-X-SERVER-CONTROL:" + list.serialized + "\n"
    }

    private func startLine(_ start: StartPoint) -> String {
        "#EXT-X-START:TIME-OFFSET=" + formatDecimal(start.timeOffset.seconds) + (start.precise ? ",PRECISE=YES" : "") + "\n"
    }

    private func defineLine(_ definition: VariableDefinition) -> String {
        switch definition {
        case .value(let name, let value): return "#EXT-X-DEFINE:NAME=\"\(name)\",VALUE=\"\(value)\"\n"
        case .import(let name): return "#EXT-X-DEFINE:IMPORT=\"\(name)\"\n"
        case .queryParameter(let name): return "#EXT-X-DEFINE:QUERYPARAM=\"\(name)\"\n"
        }
    }

    private func appendOthers(_ others: AttributeList, to list: inout AttributeList) {
        for entry in others { list.append(entry.name, entry.value) }
    }
}
