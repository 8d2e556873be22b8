import PlaytraceCore

/// The mutable state of one parse: the line loop, URI lines and segments, and the playlist being built. The rest
/// lives by concept beside it: the tags of each playlist kind (`ParserState+MediaTags.swift`,
/// `ParserState+MultivariantTags.swift`), values and attribute lists (`+Values`), variables (`+Variables`), the
/// window of a live playlist's last segments (`+Window`) and the end of a parse with its checks (`+Finish`).
struct ParserState {
    let options: PlaylistParser.Options
    var line = 0
    var warnings: [PlaylistWarning] = []
    var variables: [String: String] = [:]
    /// Imported or query variables whose value is unknown here: their references are kept as written.
    var unresolvedImports: Set<String> = []
    var sawMediaTag = false
    var sawMultivariantTag = false
    /// With ``PlaylistParser/Options/diagnoses``, the first problem that leaves the playlist unusable.
    var unusable: PlaylistParseError?
    var sawHeader = false
    var seenOnce: Set<UInt8> = []

    var media = MediaPlaylist(targetDuration: 0)
    var hasTargetDuration = false
    var inHeader = true
    var pending = SegmentTags()
    var pendingDuration: Double?
    var pendingTitle = ""
    var pendingByteRange: ByteRange?
    var pendingInfLine = 0
    var pendingByteRangeLine = 0
    var segments: [Segment] = []
    /// The line of each segment's `EXTINF`, for problems found once the playlist is read.
    var segmentLines: [Int] = []
    /// Segments read, those left out by ``PlaylistParser/Options/keepingLastSegments`` included.
    var segmentsRead = 0
    /// What the segments left out by ``PlaylistParser/Options/keepingLastSegments`` carried forward.
    var windowCarry = WindowCarry()
    /// The URI of the previous segment when it had a byte range (the next range without an offset follows it).
    var previousByteRangeURI: SegmentURI?
    /// Where the previous byte range of ``previousByteRangeURI`` ended: where a range without an offset starts.
    var previousByteRangeEnd = 0
    /// Where the segments' URIs and the variants' text attributes are copied, made at the first one with room for
    /// every line of the input.
    var textBlock: TextBlock?
    /// The size of the input.
    let inputBytes: Int
    /// Each date range read so far by ID, its tags merged (RFC 8216bis §4.4.5.1): a later tag of the same range
    /// takes its start when it omits START-DATE (as RFC 8216's own SCTE-35 example does), and the attributes it
    /// gives with another value are reported.
    var dateRangesByID: [String: DateRange] = [:]
    /// The names defined so far, values known or not.
    var definedNames: Set<String> = []
    /// The bytes that variable substitution may insert into this playlist, and what is left of them.
    let totalSubstitutionBudget: Int
    var substitutionBudget: Int

    var multivariant = MultivariantPlaylist()
    /// Whether the last of `multivariant.variants` waits for its URI line (it is built in place: a variant is too
    /// large a value to move through an optional on every STREAM-INF).
    var hasPendingVariant = false
    var pendingVariantLine = 0
    /// The spans of the attribute list being read, kept from tag to tag so that reading one reuses their memory
    /// (``AttributeListParser/scan(_:into:)``).
    var attributeSpans: [AttributeSpan] = []
    /// The bytes of the attribute list being read, kept from tag to tag in the same way.
    var attributeBytes: [UInt8] = []
    /// The line of each variant's `EXT-X-STREAM-INF`.
    var variantLines: [Int] = []

    init(options: PlaylistParser.Options, inputBytes: Int) {
        self.options = options
        self.inputBytes = inputBytes
        totalSubstitutionBudget = options.limits.substitutionBudget(forInputBytes: inputBytes)
        substitutionBudget = totalSubstitutionBudget
    }

    /// Reports a problem that spoils one tag or line: thrown when it is fatal or the parse is strict, otherwise
    /// kept as a warning so that the rest of the playlist is read.
    mutating func recover(_ error: PlaylistParseError) throws(PlaylistParseError) {
        if error.reason.isFatal { return try diagnose(error) }
        if options.isStrict { throw error }
        warnings.append(PlaylistWarning(skipping: error))
    }

    /// A problem that leaves the playlist unusable: thrown, unless the parse ``PlaylistParser/Options/diagnoses``
    /// and the problem is one the rest of the document can still be read past; then it is a warning, and the first
    /// such one is the outcome's ``PlaylistParser/Outcome/unusable``.
    mutating func diagnose(_ error: PlaylistParseError) throws(PlaylistParseError) {
        switch error.reason {
        case .mixedPlaylistKinds, .missingTargetDuration, .missingVariants:
            guard options.diagnoses, !options.isStrict else { throw error }
            if unusable == nil { unusable = error }
            warnings.append(PlaylistWarning(skipping: error))
        default:
            throw error
        }
    }

    mutating func parse(_ input: Span<UInt8>) throws(PlaylistParseError) {
        let hasByteOrderMark = input.count >= 3 && input[0] == 0xEF && input[1] == 0xBB && input[2] == 0xBF
        let bytes = hasByteOrderMark ? input.extracting(3...) : input
        let expected = min(bytes.count / 64, options.keepingLastSegments.map { 2 * $0 } ?? .max)
        segments.reserveCapacity(expected)
        segmentLines.reserveCapacity(expected)
        var start = 0
        let count = bytes.count
        let maximumLineLength = options.limits.maximumLineLength
        while start < count {
            let end = bytes.firstIndex(of: 0x0A, from: start)
            line += 1
            var lineEnd = end
            if lineEnd > start, bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            guard lineEnd - start <= maximumLineLength else {
                throw PlaylistParseError(line: line, reason: .limitExceeded(.lineLength(maximumLineLength)))
            }
            let lineBytes = bytes.extracting(start..<lineEnd)
            try handle(line: lineBytes.extracting(ByteScanning.trimmed(lineBytes)))
            start = end + 1
        }
        if line == 0 || !sawHeader { throw PlaylistParseError(line: 1, reason: .missingHeader) }
    }

    private mutating func handle(line text: Span<UInt8>) throws(PlaylistParseError) {
        if !sawHeader {
            if text.count >= 7, text[0] == 0x23, text[1] == 0x45, text[2] == 0x58, text[3] == 0x54,
               text[4] == 0x4D, text[5] == 0x33, text[6] == 0x55
            {
                sawHeader = true
                return
            }
            // Blank lines and comments before the header are skipped (players read past them); anything else
            // means this is not a playlist.
            let isComment = !text.isEmpty && text[0] == 0x23
                && !(text.count >= 4 && text[1] == 0x45 && text[2] == 0x58 && text[3] == 0x54)
            guard text.isEmpty || isComment else { throw PlaylistParseError(line: line, reason: .missingHeader) }
            if !text.isEmpty {
                warnings.append(PlaylistWarning(line: line, message: "a comment comes before #EXTM3U"))
            }
            return
        }
        guard !text.isEmpty else { return }
        if text[0] == 0x23 {
            guard text.count >= 4, text[1] == 0x45, text[2] == 0x58, text[3] == 0x54 else { return }  // comment
            if let (tag, valueStart) = Self.frequentTag(text) {
                do { try noteKind(of: tag) } catch { return try diagnose(error) }
                do {
                    try handle(tag: tag, value: text.extracting(valueStart...))
                } catch {
                    try recover(error)
                }
                return
            }
            var colon = 0
            while colon < text.count, text[colon] != 0x3A { colon += 1 }
            let name = text.extracting(0..<colon)
            let value = text.extracting(Swift.min(colon + 1, text.count)...)
            guard let tag = TagName.lookup(name) else {
                do {
                    let unknown = UnknownTag(line: try self.text(text))
                    if inHeader { media.unknownTags.append(unknown) } else { pending.unknownTags.append(unknown) }
                } catch {
                    try recover(error)
                }
                return
            }
            do { try noteKind(of: tag) } catch { return try diagnose(error) }
            do {
                try handle(tag: tag, value: value)
            } catch {
                try recover(error)
            }
        } else {
            try handleURI(text)
        }
    }

    /// `#EXTINF:` and `#EXT-X-PROGRAM-DATE-TIME:` start nearly every other line of a media playlist: they are
    /// recognised by their prefix, without searching for the colon or looking the name up.
    @inline(__always)
    private static func frequentTag(_ text: Span<UInt8>) -> (TagName, Int)? {
        if hasPrefix(text, extinf) { return (.extinf, extinf.count) }
        if hasPrefix(text, programDateTime) { return (.programDateTime, programDateTime.count) }
        return nil
    }

    private static let extinf = Array("#EXTINF:".utf8)
    private static let programDateTime = Array("#EXT-X-PROGRAM-DATE-TIME:".utf8)

    @inline(__always)
    private static func hasPrefix(_ text: Span<UInt8>, _ prefix: [UInt8]) -> Bool {
        text.count >= prefix.count && ByteScanning.equal(prefix, text.extracting(0..<prefix.count))
    }

    /// Notes the playlist's kind from a tag that belongs to one kind only; a tag of the other kind than the one the
    /// playlist began with is an error (the kind seen first stays the playlist's).
    private mutating func noteKind(of tag: TagName) throws(PlaylistParseError) {
        if tag.isMediaOnly {
            if sawMultivariantTag { throw PlaylistParseError(line: line, reason: .mixedPlaylistKinds) }
            sawMediaTag = true
        }
        if tag.isMultivariantOnly {
            if sawMediaTag { throw PlaylistParseError(line: line, reason: .mixedPlaylistKinds) }
            sawMultivariantTag = true
        }
    }

    private mutating func handle(tag: TagName, value: Span<UInt8>) throws(PlaylistParseError) {
        switch tag {
        case .extm3u: return
        case .version:
            try once(tag)
            media.version = try integer(value, tag)
        case .independentSegments: media.hasIndependentSegments = true
        case .start: media.start = try startPoint(value)
        case .define: try define(value)
        case .streamInf, .iFrameStreamInf, .media, .sessionData, .sessionKey, .contentSteering:
            try handleMultivariant(tag: tag, value: value)
        default:
            try handleMedia(tag: tag, value: value)
        }
    }

    private mutating func handleURI(_ text: Span<UInt8>) throws(PlaylistParseError) {
        let scan = ByteScanning.scan(text)
        if scan.isASCII, !scan.hasControl, !scan.hasVariableReference {
            // The usual URI: used as written, its bytes copied into the parse's block.
            let uri = storedURI(text)
            guard hasPendingVariant else { return try appendSegment(uri: uri) }
            return completePendingVariant(uri: uri)
        }
        let raw: String
        if let valid = ByteScanning.validString(text, isASCII: scan.isASCII) {
            raw = valid
        } else {
            try recover(PlaylistParseError(line: line, reason: .invalidEncoding))
            raw = ByteScanning.string(text)
        }
        // A URI that cannot be resolved drops its variant; a segment keeps its place as a gap, so that the
        // timeline (durations, dates, sequence numbers) of the rest stays right.
        var uri = raw
        var isUsable = raw.utf8.count == text.count
        if scan.hasControl {
            try recover(PlaylistParseError(line: line, reason: .invalidURI(raw)))
            isUsable = false
        } else if isUsable, scan.hasVariableReference || !variables.isEmpty && raw.contains("{$") {
            do {
                uri = try resolvedURI(raw)
            } catch {
                try recover(error)
                isUsable = false
            }
        }
        if hasPendingVariant {
            guard isUsable else {
                hasPendingVariant = false
                multivariant.variants.removeLast()
                return
            }
            return completePendingVariant(uri: SegmentURI(uri))
        }
        try appendSegment(uri: SegmentURI(isUsable ? uri : Self.gapURI(raw)), isGap: !isUsable)
    }

    /// Gives the last variant, which waited for its URI line, its URI.
    private mutating func completePendingVariant(uri: SegmentURI) {
        hasPendingVariant = false
        multivariant.variants[multivariant.variants.count - 1].uriText = uri
        variantLines.append(pendingVariantLine)
    }

    /// `text` copied into the parse's text block (a new block when the first one is full: substituted URIs can
    /// make the URIs longer than the input).
    mutating func storedURI(_ text: Span<UInt8>) -> SegmentURI {
        if let block = textBlock, let uri = block.appendURI(text) { return uri }
        return textBlock(roomFor: text.count).appendURI(text)
            ?? SegmentURI(ByteScanning.string(text))  // (past the 4 GB a block holds)
    }

    /// The parse's text block, a new one when the current one has less room than `count` bytes.
    mutating func textBlock(roomFor count: Int) -> TextBlock {
        if let block = textBlock, block.room >= count { return block }
        let block = TextBlock.make(capacity: Swift.max(inputBytes, count))
        textBlock = block
        return block
    }

    /// Ends the segment whose tags were read: its URI line has come (`isGap`: a URI that cannot be used).
    private mutating func appendSegment(uri: SegmentURI, isGap: Bool = false) throws(PlaylistParseError) {
        guard let duration = pendingDuration else {
            return try recover(PlaylistParseError(line: line, reason: .missingSegmentDuration))
        }
        if sawMultivariantTag {
            pendingDuration = nil
            return try diagnose(PlaylistParseError(line: line, reason: .mixedPlaylistKinds))
        }
        sawMediaTag = true
        guard segmentsRead < options.limits.maximumSegments else {
            throw PlaylistParseError(line: line, reason: .limitExceeded(.segments(options.limits.maximumSegments)))
        }
        if let range = pendingByteRange {
            if range.offset == nil, previousByteRangeURI != uri {
                try recover(PlaylistParseError(line: pendingByteRangeLine, reason: .unresolvableByteRange))
            }
            let start = range.offset ?? (previousByteRangeURI == uri ? previousByteRangeEnd : 0)
            if start.addingChecked(range.length) == nil {
                // Ranges that follow one another past 2^63 bytes: no resource is that long.
                try recover(PlaylistParseError(line: pendingByteRangeLine, reason: .invalidValue(
                    tag: TagName.byteRange.text, value: "\(range.length) (the range would end past 2^63 bytes)")))
            }
            previousByteRangeEnd = start.addingSaturating(range.length)
            previousByteRangeURI = uri
        } else {
            previousByteRangeURI = nil
        }
        var tags = SegmentTags()
        swap(&tags, &pending)
        if isGap { tags.isGap = true }
        segments.append(Segment(uriText: uri, duration: duration, title: pendingTitle, byteRange: pendingByteRange,
                                tags: tags))
        segmentLines.append(pendingInfLine)
        segmentsRead += 1
        if let window = options.keepingLastSegments, segments.count >= 2 * window, media.playlistType != .vod {
            leaveOutOldestSegments(segments.count - window)
        }
        pendingDuration = nil
        pendingTitle = ""
        pendingByteRange = nil
    }

    /// The text kept as the URI of a segment whose URI line could not be resolved: braces and control characters
    /// percent-encoded, so that the playlist written back reads as the same gap (a `{$name}` left as it was would
    /// be substituted on the next read, by a definition that came later in the original).
    static func gapURI(_ raw: String) -> String {
        guard raw.utf8.contains(where: { $0 == 0x7B || $0 == 0x25 || ByteScanning.isControl($0) }) else { return raw }
        var result = ""
        for scalar in raw.unicodeScalars {
            if scalar == "{" || scalar == "%" || scalar.value < 0x20 || scalar.value == 0x7F {
                result += "%" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16, uppercase: true)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A URI line with its variables substituted; an error when the result is not a URI (a substituted value may
    /// bring what a URI line cannot hold).
    private mutating func resolvedURI(_ raw: String) throws(PlaylistParseError) -> String {
        let substituted = try substitute(raw)
        let utf8 = substituted.utf8
        let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        let first = utf8.firstIndex { !isBlank($0) } ?? utf8.endIndex
        let last = utf8.lastIndex { !isBlank($0) }.map(utf8.index(after:)) ?? first
        let uri = String(substituted[first..<max(first, last)])
        guard !uri.isEmpty, !uri.hasPrefix("#"), !uri.utf8.contains(where: ByteScanning.isControl) else {
            throw PlaylistParseError(line: line, reason: .invalidURI(uri))
        }
        return uri
    }
}
