extension ParserState {
    mutating func handleMultivariant(tag: TagName, value: UnsafeBufferPointer<UInt8>) throws(PlaylistParseError) {
        switch tag {
        case .streamInf:
            if hasPendingVariant {
                hasPendingVariant = false
                multivariant.variants.removeLast()
                try recover(PlaylistParseError(line: pendingVariantLine, reason: .missingVariantURI))
            }
            var reader = try attributes(value, tag)
            reader.resolve(against: Self.variantNames)
            let closedCaptions = reader.value("CLOSED-CAPTIONS")
            multivariant.variants.append(VariantStream(
                uri: "", stream: try streamAttributes(reader, known: Self.variantNames),
                frameRate: try reader.decimal("FRAME-RATE"), audio: reader.string("AUDIO"),
                subtitles: reader.string("SUBTITLES"),
                closedCaptions: closedCaptions.flatMap { if case .quoted(let group) = $0 { group } else { nil } },
                hasNoClosedCaptions: closedCaptions == .unquoted("NONE")))
            hasPendingVariant = true
            pendingVariantLine = line
        case .iFrameStreamInf:
            var reader = try attributes(value, tag)
            reader.resolve(against: Self.iFrameVariantNames)
            multivariant.iFrameVariants.append(IFrameVariantStream(
                uri: try reader.requiredString("URI"), stream: try streamAttributes(reader, known: Self.iFrameVariantNames)))
        case .media: multivariant.renditions.append(try rendition(value))
        case .sessionData:
            let reader = try attributes(value, tag)
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
            let reader = try attributes(value, tag)
            multivariant.contentSteering = ContentSteering(
                serverURI: try reader.requiredString("SERVER-URI"), pathwayID: reader.string("PATHWAY-ID"))
        default: break
        }
    }

    private static let streamNames: [StaticString] = [
        "BANDWIDTH", "AVERAGE-BANDWIDTH", "SCORE", "CODECS", "SUPPLEMENTAL-CODECS", "RESOLUTION", "HDCP-LEVEL",
        "ALLOWED-CPC", "VIDEO-RANGE", "REQ-VIDEO-LAYOUT", "STABLE-VARIANT-ID", "VIDEO", "PATHWAY-ID",
    ]
    /// The attributes a variant stream's model holds; the others are kept as they were written.
    private static let variantNames = AttributeNames(streamNames + ["FRAME-RATE", "AUDIO", "SUBTITLES", "CLOSED-CAPTIONS"])
    /// The attributes an I-frame variant's model holds.
    private static let iFrameVariantNames = AttributeNames(streamNames + ["URI"])

    private mutating func streamAttributes(_ reader: AttributeReader, known: AttributeNames) throws(PlaylistParseError)
        -> StreamAttributes
    {
        guard let bandwidth = try bitRate(reader, "BANDWIDTH") else { throw reader.missing("BANDWIDTH") }
        return StreamAttributes(
            bandwidth: bandwidth,
            averageBandwidth: try bitRate(reader, "AVERAGE-BANDWIDTH"),
            score: try reader.decimal("SCORE"),
            codecs: reader.list("CODECS"),
            supplementalCodecs: reader.string("SUPPLEMENTAL-CODECS"), resolution: try reader.resolution("RESOLUTION"),
            hdcpLevel: reader.string("HDCP-LEVEL"), allowedCPC: reader.string("ALLOWED-CPC"),
            videoRange: reader.string("VIDEO-RANGE"), requiredVideoLayout: reader.string("REQ-VIDEO-LAYOUT"),
            stableVariantID: reader.string("STABLE-VARIANT-ID"), video: reader.string("VIDEO"),
            pathwayID: reader.string("PATHWAY-ID"),
            otherAttributes: reader.attributes(excluding: known))
    }

    /// A bit rate attribute. Some packagers write it as a decimal (`BANDWIDTH="1280000.0"`): a whole,
    /// non-negative one is read, with a problem reported, as players do.
    private mutating func bitRate(_ reader: AttributeReader, _ name: StaticString) throws(PlaylistParseError) -> Int? {
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

    private static let renditionNames = AttributeNames([
        "TYPE", "URI", "GROUP-ID", "LANGUAGE", "ASSOC-LANGUAGE", "NAME", "STABLE-RENDITION-ID", "DEFAULT",
        "AUTOSELECT", "FORCED", "INSTREAM-ID", "BIT-DEPTH", "SAMPLE-RATE", "CHARACTERISTICS", "CHANNELS",
    ])

    private mutating func rendition(_ value: UnsafeBufferPointer<UInt8>) throws(PlaylistParseError) -> Rendition {
        var reader = try attributes(value, .media)
        reader.resolve(against: Self.renditionNames)
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
            channels: reader.string("CHANNELS"), otherAttributes: reader.attributes(excluding: Self.renditionNames))
    }
}
