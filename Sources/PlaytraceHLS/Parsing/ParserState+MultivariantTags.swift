extension ParserState {
    mutating func handleMultivariant(tag: TagName, value: Span<UInt8>) throws(PlaylistParseError) {
        switch tag {
        case .streamInf:
            if hasPendingVariant {
                hasPendingVariant = false
                multivariant.variants.removeLast()
                try recover(PlaylistParseError(line: pendingVariantLine, reason: .missingVariantURI))
            }
            let names = Self.variantNames
            var reader = try attributes(value, tag)
            reader.resolve(against: names)
            let stream = try streamAttributes(reader, known: names)
            let frameRate = try reader.decimal(VariantAttribute.frameRate.index, of: names)
            let closedCaptions = reader.withValue(VariantAttribute.closedCaptions.index, of: names) { bytes, isQuoted in
                // A quoted value names a group; NONE, unquoted, says there are none.
                guard let bytes else { return (group: String?.none, none: false) }
                return isQuoted ? (ByteScanning.string(bytes), false) : (nil, ByteScanning.equal("NONE", bytes))
            }
            multivariant.variants.append(VariantStream(
                uriText: SegmentURI.none, stream: consume stream, frameRate: frameRate,
                audio: reader.string(VariantAttribute.audio.index, of: names),
                subtitles: reader.string(VariantAttribute.subtitles.index, of: names),
                closedCaptions: closedCaptions.group, hasNoClosedCaptions: closedCaptions.none))
            hasPendingVariant = true
            pendingVariantLine = line
        case .iFrameStreamInf:
            let names = Self.iFrameVariantNames
            var reader = try attributes(value, tag)
            reader.resolve(against: names)
            let stream = try streamAttributes(reader, known: names)
            let uri = reader.withValue(IFrameAttribute.uri.index, of: names) { bytes, _ -> SegmentURI? in
                guard let bytes else { return nil }
                return storedURI(bytes)
            }
            guard let uri else { throw reader.missing("URI") }
            multivariant.iFrameVariants.append(IFrameVariantStream(uriText: uri, stream: consume stream))
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

    /// The attributes both stream tags share, in the order the readers index them (`rawValue`): a variant's and an
    /// I-frame variant's name sets begin with them, then each tag's own.
    enum StreamAttribute: Int, CaseIterable {
        case bandwidth, averageBandwidth, score, codecs, supplementalCodecs, resolution, hdcpLevel, allowedCPC
        case videoRange, requiredVideoLayout, stableVariantID, video, pathwayID

        var name: StaticString {
            switch self {
            case .bandwidth: "BANDWIDTH"
            case .averageBandwidth: "AVERAGE-BANDWIDTH"
            case .score: "SCORE"
            case .codecs: "CODECS"
            case .supplementalCodecs: "SUPPLEMENTAL-CODECS"
            case .resolution: "RESOLUTION"
            case .hdcpLevel: "HDCP-LEVEL"
            case .allowedCPC: "ALLOWED-CPC"
            case .videoRange: "VIDEO-RANGE"
            case .requiredVideoLayout: "REQ-VIDEO-LAYOUT"
            case .stableVariantID: "STABLE-VARIANT-ID"
            case .video: "VIDEO"
            case .pathwayID: "PATHWAY-ID"
            }
        }

        /// Where it is in ``ParserState/variantNames`` and ``ParserState/iFrameVariantNames``.
        var index: Int { rawValue }
    }

    /// `EXT-X-STREAM-INF`'s own attributes, after the shared ones.
    enum VariantAttribute: Int, CaseIterable {
        case frameRate, audio, subtitles, closedCaptions

        var name: StaticString {
            switch self {
            case .frameRate: "FRAME-RATE"
            case .audio: "AUDIO"
            case .subtitles: "SUBTITLES"
            case .closedCaptions: "CLOSED-CAPTIONS"
            }
        }

        /// Where it is in ``ParserState/variantNames``.
        var index: Int { StreamAttribute.allCases.count + rawValue }
    }

    /// `EXT-X-I-FRAME-STREAM-INF`'s own attributes, after the shared ones.
    enum IFrameAttribute: Int, CaseIterable {
        case uri

        var name: StaticString { "URI" }

        /// Where it is in ``ParserState/iFrameVariantNames``.
        var index: Int { StreamAttribute.allCases.count + rawValue }
    }

    /// The attributes a variant stream's model holds; the others are kept as they were written.
    static let variantNames = AttributeNames(StreamAttribute.allCases.map(\.name) + VariantAttribute.allCases.map(\.name))
    /// The attributes an I-frame variant's model holds.
    static let iFrameVariantNames = AttributeNames(StreamAttribute.allCases.map(\.name)
        + IFrameAttribute.allCases.map(\.name))

    private mutating func streamAttributes(_ reader: AttributeReader, known: AttributeNames) throws(PlaylistParseError)
        -> StreamAttributes
    {
        guard let bandwidth = try bitRate(reader, StreamAttribute.bandwidth.index, of: known) else {
            throw reader.missing("BANDWIDTH")
        }
        func text(_ attribute: StreamAttribute) -> String? { reader.string(attribute.index, of: known) }
        var attributes = StreamAttributes(
            bandwidth: bandwidth, averageBandwidth: try bitRate(reader, StreamAttribute.averageBandwidth.index, of: known),
            score: try reader.decimal(StreamAttribute.score.index, of: known),
            supplementalCodecs: text(.supplementalCodecs),
            resolution: try reader.resolution(StreamAttribute.resolution.index, of: known),
            hdcpLevel: text(.hdcpLevel), allowedCPC: text(.allowedCPC), videoRange: text(.videoRange),
            requiredVideoLayout: text(.requiredVideoLayout), stableVariantID: text(.stableVariantID),
            video: text(.video), pathwayID: text(.pathwayID), otherAttributes: reader.attributes(excluding: known))
        // CODECS as written, but for white space around items and empty items (`StreamAttributes.codecs`).
        attributes.codecsText = reader.withValue(StreamAttribute.codecs.index, of: known) { bytes, _ in
            guard let bytes else { return nil }
            return Self.tidyList(bytes)
        }
        return attributes
    }

    /// A comma-separated list (CODECS) as `StreamAttributes` keeps it: its items joined by commas, with the white
    /// space around each item and the empty items left out; `nil` when no item is left.
    private static func tidyList(_ bytes: Span<UInt8>) -> String? {
        if ByteScanning.isTidyList(bytes) { return ByteScanning.string(bytes) }
        var items: [String] = []
        var start = 0
        while start <= bytes.count {
            let end = ByteScanning.firstIndex(of: 0x2C, or: 0x2C, in: bytes, from: start)
            let item = bytes.extracting(start..<end)
            let trimmed = ByteScanning.trimmed(item)
            if !trimmed.isEmpty { items.append(ByteScanning.string(item.extracting(trimmed))) }
            start = end + 1
        }
        return items.isEmpty ? nil : items.joined(separator: ",")
    }

    /// A bit rate attribute. Some packagers write it as a decimal (`BANDWIDTH="1280000.0"`): a whole,
    /// non-negative one is read, with a problem reported, as players do.
    private mutating func bitRate(_ reader: AttributeReader, _ index: Int, of names: AttributeNames)
        throws(PlaylistParseError) -> Int?
    {
        do {
            return try reader.integer(index, of: names)
        } catch {
            guard let value = reader.string(index, of: names), let number = Double(value), number >= 0, number < 1e18,
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

    private mutating func rendition(_ value: Span<UInt8>) throws(PlaylistParseError) -> Rendition {
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
