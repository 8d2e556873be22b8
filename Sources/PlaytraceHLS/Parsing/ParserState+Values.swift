import PlaytraceCore

/// Reading tag values: integers, text, attribute lists (with their variables substituted).
extension ParserState {
    mutating func once(_ tag: TagName) throws(PlaylistParseError) {
        guard seenOnce.insert(tag.rawValue).inserted else {
            throw PlaylistParseError(line: line, reason: .duplicateTag(tag.text))
        }
    }

    func integer(_ value: Span<UInt8>, _ tag: TagName) throws(PlaylistParseError) -> Int {
        guard let number = ByteScanning.integer(value) else {
            throw PlaylistParseError(line: line, reason: .invalidValue(tag: tag.text, value: ByteScanning.string(value)))
        }
        return number
    }

    /// A media or discontinuity sequence number, at most ``ByteScanning/maximumSequenceNumber``.
    func sequenceNumber(_ value: Span<UInt8>, _ tag: TagName) throws(PlaylistParseError) -> Int {
        let number = try integer(value, tag)
        guard number <= ByteScanning.maximumSequenceNumber else {
            throw PlaylistParseError(line: line, reason: .invalidValue(tag: tag.text, value: ByteScanning.string(value)))
        }
        return number
    }

    /// The bytes as text; an error when they are not UTF-8.
    func text(_ bytes: Span<UInt8>) throws(PlaylistParseError) -> String {
        var isASCII = true
        for index in bytes.indices where bytes[index] >= 0x80 {
            isASCII = false
            break
        }
        guard let text = ByteScanning.validString(bytes, isASCII: isASCII) else {
            throw PlaylistParseError(line: line, reason: .invalidEncoding)
        }
        return text
    }

    func validateUTF8(_ bytes: Span<UInt8>) throws(PlaylistParseError) {
        for index in bytes.indices where bytes[index] >= 0x80 {
            guard bytes.validatedString != nil else {
                throw PlaylistParseError(line: line, reason: .invalidEncoding)
            }
            return
        }
    }

    /// Reads an attribute list in place, substituting variables in its values.
    mutating func attributes(_ value: Span<UInt8>, _ tag: TagName) throws(PlaylistParseError)
        -> AttributeReader
    {
        guard value.count <= Self.maximumAttributeListBytes else {
            throw PlaylistParseError(line: line, reason: .limitExceeded(.lineLength(Self.maximumAttributeListBytes)))
        }
        let scan = ByteScanning.scan(value)
        if !scan.isASCII { try validateUTF8(value) }
        guard !scan.hasControl, let spanCount = AttributeListParser.scan(value, into: &attributeSpans) else {
            throw PlaylistParseError(line: line, reason: .malformedAttributeList(tag: tag.text))
        }
        // A reference to a variable not (yet) defined fails the parse here as on URI lines (RFC 8216bis 4.3), even
        // before any variable is defined.
        guard scan.hasVariableReference else {
            attributeBytes.removeAll(keepingCapacity: true)
            value.append(to: &attributeBytes)
            return AttributeReader(tag: tag, line: line, bytes: attributeBytes, spans: attributeSpans, count: spanCount)
        }
        // Quoted strings and hexadecimal sequences take variables (RFC 8216bis 4.3); other unquoted values are
        // substituted too, since the parser reads a quoted-string attribute written without quotes as its text
        // (and the writer would quote it back, where it would be substituted on the next read).
        var bytes: [UInt8] = []
        var spans: [AttributeSpan] = []
        for span in attributeSpans[..<spanCount] {
            let nameStart = bytes.count
            value.extracting(span.nameStart..<span.nameEnd).append(to: &bytes)
            let nameEnd = bytes.count
            let substituted = try substitute(ByteScanning.string(value.extracting(span.valueStart..<span.valueEnd)))
            bytes.append(contentsOf: substituted.utf8)
            guard bytes.count <= Self.maximumAttributeListBytes else {
                throw PlaylistParseError(line: line, reason: .limitExceeded(.lineLength(Self.maximumAttributeListBytes)))
            }
            // A value can bring a comma: the result is then a quoted value, as it will be written.
            spans.append(AttributeSpan(
                nameStart: nameStart, nameEnd: nameEnd, valueStart: nameEnd, valueEnd: bytes.count,
                isQuoted: span.isQuoted || !AttributeValue.readsBackUnquoted(substituted), nameKey: span.nameKey))
        }
        return AttributeReader(tag: tag, line: line, bytes: bytes, spans: spans, count: spans.count)
    }

    /// The longest attribute list read, whatever the limits: its offsets are kept in 32 bits (`AttributeSpan`).
    static let maximumAttributeListBytes = Int(UInt32.max)

    mutating func startPoint(_ value: Span<UInt8>) throws(PlaylistParseError) -> StartPoint {
        let reader = try attributes(value, .start)
        let offset = try reader.requiredDecimal("TIME-OFFSET")
        return StartPoint(timeOffset: MediaTime(seconds: offset), precise: reader.string("PRECISE") == "YES")
    }
}
