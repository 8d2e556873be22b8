import PlaytraceCore

extension ParserState {
    mutating func handleMedia(tag: TagName, value: Span<UInt8>) throws(PlaylistParseError) {
        switch tag {
        case .extinf: try extinf(value)
        case .targetDuration:
            try once(tag)
            let target = try integer(value.extracting(ByteScanning.trimmed(value)), tag)
            guard Double(target) <= MediaTime.maximumDocumentSeconds else { throw invalidValue(tag, value) }
            media.targetDuration = target
            hasTargetDuration = true
        case .mediaSequence:
            try once(tag)
            media.mediaSequence = try sequenceNumber(value, tag)
        case .discontinuitySequence:
            try once(tag)
            media.discontinuitySequence = try sequenceNumber(value, tag)
        case .playlistType:
            try once(tag)
            guard let type = PlaylistType(rawValue: ByteScanning.string(value)) else {
                throw invalidValue(tag, value)
            }
            media.playlistType = type
        case .endList: media.hasEndList = true
        case .iFramesOnly: media.isIFramesOnly = true
        case .serverControl: media.serverControl = try serverControl(value)
        case .partInf:
            let reader = try attributes(value, tag)
            media.partInformation = PartInformation(partTarget: try reader.requiredDecimal("PART-TARGET"))
        case .skip:
            if !segments.isEmpty || pendingDuration != nil {
                // The skipped segments are the first ones: what comes before the tag would be numbered wrongly.
                warnings.append(PlaylistWarning(
                    line: line, message: "#EXT-X-SKIP comes after a segment's #EXTINF; it must precede every segment"))
            }
            let reader = try attributes(value, tag)
            let skipped = try reader.requiredInteger("SKIPPED-SEGMENTS")
            guard skipped <= ByteScanning.maximumSequenceNumber else {
                throw reader.invalid("SKIPPED-SEGMENTS", String(skipped))
            }
            media.skip = SkipInformation(
                skippedSegments: skipped,
                recentlyRemovedDateRanges: reader.string("RECENTLY-REMOVED-DATERANGES")?
                    .split(separator: "\t").map(String.init) ?? [])
        case .preloadHint:
            let reader = try attributes(value, tag)
            media.preloadHints.append(PreloadHint(
                type: try reader.requiredString("TYPE"), uri: try reader.requiredString("URI"),
                byteRangeStart: try reader.integer("BYTERANGE-START"),
                byteRangeLength: try reader.integer("BYTERANGE-LENGTH")))
        case .renditionReport:
            let reader = try attributes(value, tag)
            media.renditionReports.append(RenditionReport(
                uri: try reader.requiredString("URI"), lastMediaSequence: try reader.integer("LAST-MSN"),
                lastPart: try reader.integer("LAST-PART")))
        default:
            inHeader = false
            try segmentTag(tag, value)
        }
    }

    private mutating func segmentTag(_ tag: TagName, _ value: Span<UInt8>) throws(PlaylistParseError) {
        switch tag {
        case .discontinuity: pending.isDiscontinuity = true
        case .programDateTime:
            guard let date = StreamDate(iso8601UTF8: value.extracting(ByteScanning.trimmed(value))) else { throw invalidValue(tag, value) }
            pending.programDateTime = date
        case .byteRange:
            guard let range = ByteRangeParsing.parse(bytes: value.extracting(ByteScanning.trimmed(value))) else { throw invalidValue(tag, value) }
            pendingByteRange = range
            pendingByteRangeLine = line
        case .key: pending.keys.append(try key(value, tag: tag))
        case .map:
            let reader = try attributes(value, tag)
            pending.map = MediaInitializationSection(
                uri: try reader.requiredString("URI"), byteRange: try reader.byteRange("BYTERANGE"),
                otherAttributes: reader.attributes(excluding: Self.mapAttributeNames))
        case .gap: pending.isGap = true
        case .bitrate: pending.bitrate = try integer(value, tag)
        case .dateRange: pending.dateRanges.append(try dateRange(value))
        case .cueOut:
            if value.isEmpty {
                pending.cueOut = CueOut()
            } else {
                let text = try self.text(value)
                if let cue = CueOut(parsing: text) {
                    pending.cueOut = cue
                } else {
                    pending.cueOut = CueOut(rawValue: text)
                    warnings.append(PlaylistWarning(line: line, message: "#EXT-X-CUE-OUT has no readable duration"))
                }
            }
        case .cueOutCont:
            let continuation = CueOutContinuation(parsing: value, rawValue: try text(value))
            if !value.isEmpty, continuation.elapsed == nil, continuation.duration == nil, continuation.scte35 == nil {
                warnings.append(PlaylistWarning(line: line, message: "#EXT-X-CUE-OUT-CONT has no readable elapsed time or duration"))
            }
            pending.cueOutContinuation = continuation
        case .cueIn: pending.isCueIn = true
        case .oatclsSCTE35: pending.oatclsSCTE35 = ByteScanning.string(value)
        case .part: pending.parts.append(try part(value))
        default: break
        }
    }

    private mutating func extinf(_ value: Span<UInt8>) throws(PlaylistParseError) {
        inHeader = false
        var comma = 0
        while comma < value.count, value[comma] != 0x2C { comma += 1 }
        let durationText = value.extracting(0..<comma)
        let durationBytes = durationText.extracting(ByteScanning.trimmed(durationText))
        guard let duration = ByteScanning.boundedDecimal(durationBytes), duration >= 0 else {
            throw invalidValue(.extinf, value)
        }
        pendingDuration = duration
        pendingInfLine = line
        if comma + 1 < value.count {
            pendingTitle = try text(value.extracting((comma + 1)...))
        } else {
            pendingTitle = ""
        }
    }

    mutating func key(_ value: Span<UInt8>, tag: TagName) throws(PlaylistParseError) -> EncryptionKey {
        let reader = try attributes(value, tag)
        let method = EncryptionKey.Method(rawValue: try reader.requiredString("METHOD"))
        let uri = reader.string("URI")
        if method != .none, uri == nil { throw reader.missing("URI") }
        return EncryptionKey(
            method: method, uri: uri, iv: reader.string("IV"), keyFormat: reader.string("KEYFORMAT"),
            keyFormatVersions: reader.string("KEYFORMATVERSIONS"),
            otherAttributes: reader.attributes(excluding: Self.keyAttributeNames))
    }

    private mutating func part(_ value: Span<UInt8>) throws(PlaylistParseError) -> PartialSegment {
        let reader = try attributes(value, .part)
        guard let duration = try reader.nonNegativeDecimal("DURATION") else { throw reader.missing("DURATION") }
        return PartialSegment(
            uri: try reader.requiredString("URI"), duration: duration, isIndependent: try reader.flag("INDEPENDENT"),
            byteRange: try reader.byteRange("BYTERANGE"), isGap: try reader.flag("GAP"))
    }

    private mutating func serverControl(_ value: Span<UInt8>) throws(PlaylistParseError) -> ServerControl {
        let reader = try attributes(value, .serverControl)
        return ServerControl(
            canSkipUntil: try reader.nonNegativeDecimal("CAN-SKIP-UNTIL"),
            canSkipDateRanges: try reader.flag("CAN-SKIP-DATERANGES"),
            holdBack: try reader.nonNegativeDecimal("HOLD-BACK"),
            partHoldBack: try reader.nonNegativeDecimal("PART-HOLD-BACK"),
            canBlockReload: try reader.flag("CAN-BLOCK-RELOAD"))
    }

    private static let mapAttributeNames = AttributeNames(["URI", "BYTERANGE"])
    private static let keyAttributeNames = AttributeNames(["METHOD", "URI", "IV", "KEYFORMAT", "KEYFORMATVERSIONS"])
    private static let dateRangeAttributeNames = AttributeNames([
        "ID", "CLASS", "START-DATE", "CUE", "END-DATE", "DURATION", "PLANNED-DURATION", "END-ON-NEXT",
        "SCTE35-CMD", "SCTE35-OUT", "SCTE35-IN",
    ])

    private mutating func dateRange(_ value: Span<UInt8>) throws(PlaylistParseError) -> DateRange {
        let reader = try attributes(value, .dateRange)
        let id = try reader.requiredString("ID")
        // A later tag of the same range may leave out START-DATE (RFC 8216's own SCTE-35 example closes a
        // break that way): it takes the start of the range it continues.
        guard let start = try reader.date("START-DATE") ?? dateRangesByID[id]?.startDate else { throw reader.missing("START-DATE") }
        let end = try reader.date("END-DATE")
        if let end, end < start { throw reader.invalid("END-DATE", end.iso8601) }
        var cue = DateRange.Cue()
        let cueText = reader.string("CUE") ?? ""
        for word in cueText.split(separator: ",") {
            switch word.trimmingPrefix(" ") {
            case "PRE": cue.insert(.pre)
            case "POST": cue.insert(.post)
            case "ONCE": cue.insert(.once)
            default: throw reader.invalid("CUE", cueText)
            }
        }
        if cue.contains(.pre) && cue.contains(.post) { throw reader.invalid("CUE", cueText) }
        let endOnNext = try reader.flag("END-ON-NEXT")
        let duration = try reader.nonNegativeDecimal("DURATION")
        if endOnNext, reader.string("CLASS") == nil { throw reader.missing("CLASS") }
        if endOnNext, duration != nil || end != nil { throw reader.invalid("END-ON-NEXT", "YES") }
        let clientAttributes = reader.attributes(excluding: Self.dateRangeAttributeNames)
        let range = DateRange(
            id: id, classIdentifier: reader.string("CLASS"), startDate: start, cue: cue, endDate: end,
            duration: duration.map(MediaTime.init(seconds:)),
            plannedDuration: try reader.nonNegativeDecimal("PLANNED-DURATION").map(MediaTime.init(seconds:)),
            endOnNext: endOnNext, scte35Command: reader.string("SCTE35-CMD"), scte35Out: reader.string("SCTE35-OUT"),
            scte35In: reader.string("SCTE35-IN"), clientAttributes: clientAttributes)
        // A range that begins or ends outside years 0000 to 9999 (a time zone or a duration took it there) is no
        // date anything can write or act on.
        if !start.isWritable || !(range.effectiveEndDate?.isWritable ?? true) {
            throw reader.invalid(start.isWritable ? "END-DATE" : "START-DATE", "outside years 0000 to 9999")
        }
        if var merged = dateRangesByID[id] {
            let conflicts = merged.merge(range)
            if !conflicts.isEmpty {
                warnings.append(PlaylistWarning(line: line, message: "EXT-X-DATERANGE ID=\"\(id)\" gives "
                    + conflicts.joined(separator: ", ") + " another value than an earlier tag with its ID (kept the earlier)"))
            }
            dateRangesByID[id] = merged
        } else {
            dateRangesByID[id] = range
        }
        return range
    }

    func invalidValue(_ tag: TagName, _ value: Span<UInt8>) -> PlaylistParseError {
        PlaylistParseError(line: line, reason: .invalidValue(tag: tag.text, value: ByteScanning.string(value)))
    }
}
