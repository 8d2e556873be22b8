extension ParserState {
    mutating func handleMultivariant(tag: TagName, value: UnsafeBufferPointer<UInt8>) throws(PlaylistParseError) {
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
            let frameRate = try reader.decimal(VariantName.frameRate, of: names)
            var texts = packedStrings(3, bytes: reader.byteCount)
            reader.withValue(VariantName.audio, of: names) { bytes, _ in texts.append(bytes) }
            reader.withValue(VariantName.subtitles, of: names) { bytes, _ in texts.append(bytes) }
            let hasNoClosedCaptions = reader.withValue(VariantName.closedCaptions, of: names) { bytes, isQuoted in
                texts.append(isQuoted ? bytes : nil)
                guard let bytes, !isQuoted else { return false }
                return ("NONE" as StaticString).withUTF8Buffer { ByteScanning.equal($0, bytes) }
            }
            multivariant.variants.append(VariantStream(
                uriText: SegmentURI.none, stream: consume stream, frameRate: frameRate,
                hasNoClosedCaptions: hasNoClosedCaptions, texts: texts.finish()))
            hasPendingVariant = true
            pendingVariantLine = line
        case .iFrameStreamInf:
            let names = Self.iFrameVariantNames
            var reader = try attributes(value, tag)
            reader.resolve(against: names)
            let stream = try streamAttributes(reader, known: names)
            let uri = reader.withValue(VariantName.iFrameURI, of: names) { bytes, _ in
                bytes.map { storedURI($0) }
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

    private static let streamNames: [StaticString] = [
        "BANDWIDTH", "AVERAGE-BANDWIDTH", "SCORE", "CODECS", "SUPPLEMENTAL-CODECS", "RESOLUTION", "HDCP-LEVEL",
        "ALLOWED-CPC", "VIDEO-RANGE", "REQ-VIDEO-LAYOUT", "STABLE-VARIANT-ID", "VIDEO", "PATHWAY-ID",
    ]
    /// Where the names read by index are in ``variantNames`` and ``iFrameVariantNames`` (checked by a test).
    enum VariantName {
        static let bandwidth = 0
        static let averageBandwidth = 1
        static let score = 2
        static let resolution = 5
        static let frameRate = 13
        static let audio = 14
        static let subtitles = 15
        static let closedCaptions = 16
        static let iFrameURI = 13
    }
    /// The index in ``variantNames`` and ``iFrameVariantNames`` of each of `StreamAttributes`' text attributes.
    private static let textIndices = StreamAttributes.Text.allCases.map { text in
        // By the names' bytes: the same literal written in two files need not be one copy.
        let found = streamNames.firstIndex { name in
            name.withUTF8Buffer { name in text.name.withUTF8Buffer { ByteScanning.equal(name, $0) } }
        }
        guard let index = found else {
            preconditionFailure("\(text.name) is one of the stream names")
        }
        return index
    }
    /// The attributes a variant stream's model holds; the others are kept as they were written.
    static let variantNames = AttributeNames(streamNames + ["FRAME-RATE", "AUDIO", "SUBTITLES", "CLOSED-CAPTIONS"])
    /// The attributes an I-frame variant's model holds.
    static let iFrameVariantNames = AttributeNames(streamNames + ["URI"])

    private mutating func streamAttributes(_ reader: AttributeReader, known: AttributeNames) throws(PlaylistParseError)
        -> StreamAttributes
    {
        guard let bandwidth = try bitRate(reader, VariantName.bandwidth, of: known) else {
            throw reader.missing("BANDWIDTH")
        }
        let averageBandwidth = try bitRate(reader, VariantName.averageBandwidth, of: known)
        let score = try reader.decimal(VariantName.score, of: known)
        let resolution = try reader.resolution(VariantName.resolution, of: known)
        var texts = packedStrings(StreamAttributes.Text.allCases.count, bytes: reader.byteCount)
        // The stream names come first in both sets, in the order of `StreamAttributes.Text`.
        for (position, index) in Self.textIndices.enumerated() {
            reader.withValue(index, of: known) { bytes, _ in
                guard position == StreamAttributes.Text.codecs.rawValue, let bytes else { return texts.append(bytes) }
                appendList(bytes, to: &texts)
            }
        }
        return StreamAttributes(
            bandwidth: bandwidth, averageBandwidth: averageBandwidth, score: score, resolution: resolution,
            otherAttributes: reader.attributes(excluding: known), texts: texts.finish())
    }

    /// A comma-separated list (CODECS) as `StreamAttributes` keeps it: its items joined by commas, with the white
    /// space around each item and the empty items left out; absent when no item is left.
    private func appendList(_ bytes: UnsafeBufferPointer<UInt8>, to texts: inout PackedStrings.Builder) {
        if ByteScanning.isTidyList(bytes) { return texts.append(bytes) }
        var items: [UInt8] = []
        items.reserveCapacity(bytes.count)
        for item in bytes.split(separator: 0x2C) {
            let trimmed = ByteScanning.trimmed(UnsafeBufferPointer(rebasing: item))
            guard !trimmed.isEmpty else { continue }
            if !items.isEmpty { items.append(0x2C) }
            items.append(contentsOf: trimmed)
        }
        items.withUnsafeBufferPointer { texts.append($0.isEmpty ? nil : $0) }
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
