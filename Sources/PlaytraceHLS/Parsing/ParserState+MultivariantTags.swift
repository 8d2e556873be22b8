extension ParserState {
    mutating func handleMultivariant(tag: TagName, value: UnsafeBufferPointer<UInt8>) throws(PlaylistParseError) {
        switch tag {
        case .streamInf:
            if pendingVariant != nil {
                pendingVariant = nil
                try recover(PlaylistParseError(line: pendingVariantLine, reason: .missingVariantURI))
            }
            let list = try attributes(value, tag)
            let reader = AttributeReader(list: list, tag: tag, line: line)
            let closedCaptions = list["CLOSED-CAPTIONS"]
            pendingVariant = VariantStream(
                uri: "", stream: try streamAttributes(reader, known: Self.variantNames),
                frameRate: try reader.decimal("FRAME-RATE"), audio: reader.string("AUDIO"),
                subtitles: reader.string("SUBTITLES"),
                closedCaptions: closedCaptions.flatMap { if case .quoted(let group) = $0 { group } else { nil } },
                hasNoClosedCaptions: closedCaptions == .unquoted("NONE"))
            pendingVariantLine = line
        case .iFrameStreamInf:
            let list = try attributes(value, tag)
            let reader = AttributeReader(list: list, tag: tag, line: line)
            multivariant.iFrameVariants.append(IFrameVariantStream(
                uri: try reader.requiredString("URI"), stream: try streamAttributes(reader, known: Self.iFrameVariantNames)))
        case .media: multivariant.renditions.append(try rendition(value))
        case .sessionData:
            let reader = AttributeReader(list: try attributes(value, tag), tag: tag, line: line)
            let data = SessionData(
                dataID: try reader.requiredString("DATA-ID"), value: reader.string("VALUE"), uri: reader.string("URI"),
                format: reader.string("FORMAT"), language: reader.string("LANGUAGE"))
            if (data.value == nil) == (data.uri == nil) { throw reader.missing("VALUE") }
            multivariant.sessionData.append(data)
        case .sessionKey:
            let key = try key(value, tag: tag)
            if key.method == .none {
                throw PlaylistParseError(line: line, reason: .invalidAttribute(tag: tag.text, attribute: "METHOD", value: "NONE"))
            }
            multivariant.sessionKeys.append(key)
        case .contentSteering:
            let reader = AttributeReader(list: try attributes(value, tag), tag: tag, line: line)
            multivariant.contentSteering = ContentSteering(
                serverURI: try reader.requiredString("SERVER-URI"), pathwayID: reader.string("PATHWAY-ID"))
        default: break
        }
    }

    private static let streamNames: Set<String> = [
        "BANDWIDTH", "AVERAGE-BANDWIDTH", "SCORE", "CODECS", "SUPPLEMENTAL-CODECS", "RESOLUTION", "HDCP-LEVEL",
        "ALLOWED-CPC", "VIDEO-RANGE", "REQ-VIDEO-LAYOUT", "STABLE-VARIANT-ID", "VIDEO", "PATHWAY-ID",
    ]
    /// The attributes a variant stream's model holds; the others are kept as they were written.
    private static let variantNames = streamNames.union(["FRAME-RATE", "AUDIO", "SUBTITLES", "CLOSED-CAPTIONS"])
    /// The attributes an I-frame variant's model holds.
    private static let iFrameVariantNames = streamNames.union(["URI"])

    private mutating func streamAttributes(_ reader: AttributeReader, known: Set<String>) throws(PlaylistParseError)
        -> StreamAttributes
    {
        guard let bandwidth = try bitRate(reader, "BANDWIDTH") else { throw reader.missing("BANDWIDTH") }
        return StreamAttributes(
            bandwidth: bandwidth,
            averageBandwidth: try bitRate(reader, "AVERAGE-BANDWIDTH"),
            score: try reader.decimal("SCORE"),
            codecs: reader.string("CODECS").map(Self.codecList) ?? [],
            supplementalCodecs: reader.string("SUPPLEMENTAL-CODECS"), resolution: try reader.resolution("RESOLUTION"),
            hdcpLevel: reader.string("HDCP-LEVEL"), allowedCPC: reader.string("ALLOWED-CPC"),
            videoRange: reader.string("VIDEO-RANGE"), requiredVideoLayout: reader.string("REQ-VIDEO-LAYOUT"),
            stableVariantID: reader.string("STABLE-VARIANT-ID"), video: reader.string("VIDEO"),
            pathwayID: reader.string("PATHWAY-ID"),
            otherAttributes: reader.list.removing(known))
    }

    /// A bit rate attribute. Some packagers write it as a decimal (`BANDWIDTH="1280000.0"`): a whole,
    /// non-negative one is read, with a problem reported, as players do.
    private mutating func bitRate(_ reader: AttributeReader, _ name: String) throws(PlaylistParseError) -> Int? {
        do {
            return try reader.integer(name)
        } catch {
            guard let value = reader.string(name), let number = Double(value), number >= 0, number < 1e18,
                  number.rounded() == number
            else { throw error }
            try recover(error)
            return Int(number)
        }
    }

    /// The formats of a CODECS value: split at commas, white space around each dropped, empty ones left out (so
    /// that the list writes back, joined by commas, to text that reads as the same list).
    static func codecList(_ text: String) -> [String] {
        // Over the UTF-8 bytes: splitting and trimming by Character costs more than the rest of the tag.
        let utf8 = text.utf8
        var formats: [String] = []
        var start = utf8.startIndex
        func add(_ end: String.Index) {
            var first = start
            var last = end
            while first < last, utf8[first] == 0x20 || utf8[first] == 0x09 { first = utf8.index(after: first) }
            while last > first, utf8[utf8.index(before: last)] == 0x20 || utf8[utf8.index(before: last)] == 0x09 {
                last = utf8.index(before: last)
            }
            if first < last { formats.append(String(text[first..<last])) }
        }
        var index = start
        while index < utf8.endIndex {
            if utf8[index] == 0x2C {
                add(index)
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        add(utf8.endIndex)
        return formats
    }

    private static let renditionNames: Set<String> = [
        "TYPE", "URI", "GROUP-ID", "LANGUAGE", "ASSOC-LANGUAGE", "NAME", "STABLE-RENDITION-ID", "DEFAULT",
        "AUTOSELECT", "FORCED", "INSTREAM-ID", "BIT-DEPTH", "SAMPLE-RATE", "CHARACTERISTICS", "CHANNELS",
    ]

    private mutating func rendition(_ value: UnsafeBufferPointer<UInt8>) throws(PlaylistParseError) -> Rendition {
        let list = try attributes(value, .media)
        let reader = AttributeReader(list: list, tag: .media, line: line)
        let typeText = try reader.requiredString("TYPE")
        guard let type = Rendition.MediaType(rawValue: typeText) else { throw reader.invalid("TYPE", typeText) }
        let uri = reader.string("URI")
        if type == .closedCaptions {
            if uri != nil { throw reader.invalid("URI", uri ?? "") }
            if reader.string("INSTREAM-ID") == nil { throw reader.missing("INSTREAM-ID") }
        }
        return Rendition(
            type: type, uri: uri, groupID: try reader.requiredString("GROUP-ID"), language: reader.string("LANGUAGE"),
            associatedLanguage: reader.string("ASSOC-LANGUAGE"), name: try reader.requiredString("NAME"),
            stableRenditionID: reader.string("STABLE-RENDITION-ID"), isDefault: try reader.flag("DEFAULT"),
            isAutoselect: try reader.flag("AUTOSELECT"), isForced: try reader.flag("FORCED"),
            instreamID: reader.string("INSTREAM-ID"), bitDepth: try reader.integer("BIT-DEPTH"),
            sampleRate: try reader.integer("SAMPLE-RATE"),
            characteristics: reader.string("CHARACTERISTICS").map { $0.split(separator: ",").map(String.init) } ?? [],
            channels: reader.string("CHANNELS"), otherAttributes: list.removing(Self.renditionNames))
    }
}
