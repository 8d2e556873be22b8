import PlaytraceCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The mutable state of one parse: the line loop, variable substitution and the playlist being built.
/// Tag handlers live in `ParserState+MediaTags.swift` and `ParserState+MultivariantTags.swift`.
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

    mutating func parse(_ input: UnsafeBufferPointer<UInt8>) throws(PlaylistParseError) {
        var bytes = input
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            bytes = UnsafeBufferPointer(rebasing: bytes[3...])
        }
        let expected = min(bytes.count / 64, options.keepingLastSegments.map { 2 * $0 } ?? .max)
        segments.reserveCapacity(expected)
        segmentLines.reserveCapacity(expected)
        var start = 0
        let count = bytes.count
        let maximumLineLength = options.limits.maximumLineLength
        guard let base = bytes.baseAddress else { throw PlaylistParseError(line: 1, reason: .missingHeader) }
        while start < count {
            let end = memchr(base + start, 0x0A, count - start)
                .map { UnsafePointer<UInt8>($0.assumingMemoryBound(to: UInt8.self)) - base } ?? count
            line += 1
            var lineEnd = end
            if lineEnd > start, bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            guard lineEnd - start <= maximumLineLength else {
                throw PlaylistParseError(line: line, reason: .limitExceeded(.lineLength(maximumLineLength)))
            }
            let text = ByteScanning.trimmed(UnsafeBufferPointer(rebasing: bytes[start..<lineEnd]))
            try handle(line: text)
            start = end + 1
        }
        if line == 0 || !sawHeader { throw PlaylistParseError(line: 1, reason: .missingHeader) }
    }

    private mutating func handle(line text: UnsafeBufferPointer<UInt8>) throws(PlaylistParseError) {
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
                    try handle(tag: tag, value: UnsafeBufferPointer(rebasing: text[valueStart...]))
                } catch {
                    try recover(error)
                }
                return
            }
            var colon = 0
            while colon < text.count, text[colon] != 0x3A { colon += 1 }
            let name = UnsafeBufferPointer(rebasing: text[0..<colon])
            let value = colon < text.count
                ? UnsafeBufferPointer(rebasing: text[(colon + 1)...]) : UnsafeBufferPointer(rebasing: text[colon...])
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
    private static func frequentTag(_ text: UnsafeBufferPointer<UInt8>) -> (TagName, Int)? {
        if hasPrefix(text, extinf) { return (.extinf, extinf.count) }
        if hasPrefix(text, programDateTime) { return (.programDateTime, programDateTime.count) }
        return nil
    }

    private static let extinf = Array("#EXTINF:".utf8)
    private static let programDateTime = Array("#EXT-X-PROGRAM-DATE-TIME:".utf8)

    @inline(__always)
    private static func hasPrefix(_ text: UnsafeBufferPointer<UInt8>, _ prefix: [UInt8]) -> Bool {
        guard text.count >= prefix.count else { return false }
        for index in 0..<prefix.count where text[index] != prefix[index] { return false }
        return true
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

    private mutating func handle(tag: TagName, value: UnsafeBufferPointer<UInt8>) throws(PlaylistParseError) {
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

    private mutating func handleURI(_ text: UnsafeBufferPointer<UInt8>) throws(PlaylistParseError) {
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
            raw = String(decoding: text, as: UTF8.self)
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
    mutating func storedURI(_ text: UnsafeBufferPointer<UInt8>) -> SegmentURI {
        if let block = textBlock, let uri = block.appendURI(text) { return uri }
        return textBlock(roomFor: text.count).appendURI(text)
            ?? SegmentURI(String(decoding: text, as: UTF8.self))  // (past the 4 GB a block holds)
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
            media.targetDuration = Int((segments.map(\.duration).max() ?? 0).rounded())
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
        for index in media.segments.indices {
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

    // MARK: - Shared helpers

    mutating func once(_ tag: TagName) throws(PlaylistParseError) {
        guard seenOnce.insert(tag.rawValue).inserted else {
            throw PlaylistParseError(line: line, reason: .duplicateTag(tag.text))
        }
    }

    func integer(_ value: UnsafeBufferPointer<UInt8>, _ tag: TagName) throws(PlaylistParseError) -> Int {
        guard let number = ByteScanning.integer(value) else {
            throw PlaylistParseError(line: line, reason: .invalidValue(tag: tag.text, value: ByteScanning.string(value)))
        }
        return number
    }

    /// The bytes as text; an error when they are not UTF-8.
    func text(_ bytes: UnsafeBufferPointer<UInt8>) throws(PlaylistParseError) -> String {
        var isASCII = true
        for byte in bytes where byte >= 0x80 {
            isASCII = false
            break
        }
        guard let text = ByteScanning.validString(bytes, isASCII: isASCII) else {
            throw PlaylistParseError(line: line, reason: .invalidEncoding)
        }
        return text
    }

    func validateUTF8(_ bytes: UnsafeBufferPointer<UInt8>) throws(PlaylistParseError) {
        for byte in bytes where byte >= 0x80 {
            guard String(validating: bytes, as: UTF8.self) != nil else {
                throw PlaylistParseError(line: line, reason: .invalidEncoding)
            }
            return
        }
    }

    /// The text with every `{$name}` replaced by its value, within the playlist's substitution budget.
    mutating func substitute(_ text: String) throws(PlaylistParseError) -> String {
        guard text.contains("{$") else { return text }
        var result = ""
        var rest = Substring(text)
        while let open = rest.range(of: "{$") {
            result += rest[..<open.lowerBound]
            let afterOpen = rest[open.upperBound...]
            guard let close = afterOpen.firstIndex(of: "}") else {
                result += rest[open.lowerBound...]
                return result
            }
            let name = String(afterOpen[..<close])
            guard let value = variables[name] else {
                if unresolvedImports.contains(name) { result += "{$\(name)}" } else {
                    throw PlaylistParseError(line: line, reason: .undefinedVariable(name))
                }
                rest = afterOpen[afterOpen.index(after: close)...]
                continue
            }
            substitutionBudget -= value.utf8.count
            guard substitutionBudget >= 0 else {
                throw PlaylistParseError(line: line, reason: .limitExceeded(.substitutedBytes(totalSubstitutionBudget)))
            }
            result += value
            rest = afterOpen[afterOpen.index(after: close)...]
        }
        result += rest
        return result
    }

    /// Reads an attribute list in place, substituting variables in its values.
    mutating func attributes(_ value: UnsafeBufferPointer<UInt8>, _ tag: TagName) throws(PlaylistParseError)
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
            return AttributeReader(tag: tag, line: line, bytes: value, spans: attributeSpans, count: spanCount)
        }
        // Quoted strings and hexadecimal sequences take variables (RFC 8216bis 4.3); other unquoted values are
        // substituted too, since the parser reads a quoted-string attribute written without quotes as its text
        // (and the writer would quote it back, where it would be substituted on the next read).
        var bytes: [UInt8] = []
        var spans: [AttributeSpan] = []
        for span in attributeSpans[..<spanCount] {
            let nameStart = bytes.count
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: value[span.nameStart..<span.nameEnd]))
            let nameEnd = bytes.count
            let substituted = try substitute(ByteScanning.string(UnsafeBufferPointer(rebasing: value[span.valueStart..<span.valueEnd])))
            bytes.append(contentsOf: substituted.utf8)
            guard bytes.count <= Self.maximumAttributeListBytes else {
                throw PlaylistParseError(line: line, reason: .limitExceeded(.lineLength(Self.maximumAttributeListBytes)))
            }
            // A value can bring a comma: the result is then a quoted value, as it will be written.
            spans.append(AttributeSpan(
                nameStart: nameStart, nameEnd: nameEnd, valueStart: nameEnd, valueEnd: bytes.count,
                isQuoted: span.isQuoted || !AttributeValue.readsBackUnquoted(substituted), nameKey: span.nameKey))
        }
        return AttributeReader(tag: tag, line: line, owning: bytes, spans: spans)
    }

    /// The longest attribute list read, whatever the limits: its offsets are kept in 32 bits (`AttributeSpan`).
    static let maximumAttributeListBytes = Int(UInt32.max)

    private mutating func startPoint(_ value: UnsafeBufferPointer<UInt8>) throws(PlaylistParseError) -> StartPoint {
        let reader = try attributes(value, .start)
        let offset = try reader.requiredDecimal("TIME-OFFSET")
        return StartPoint(timeOffset: MediaTime(seconds: offset), precise: reader.string("PRECISE") == "YES")
    }

    /// The value of a variable defined outside the playlist: an error when the context is known and lacks it;
    /// unresolved (kept as a reference, with a warning) when the context is unknown.
    private mutating func resolveExternal(_ name: String, in context: [String: String]?, unknown: String)
        throws(PlaylistParseError) -> String?
    {
        guard let context else {
            unresolvedImports.insert(name)
            warnings.append(PlaylistWarning(line: line, message: unknown))
            return nil
        }
        guard let value = context[name] else { throw PlaylistParseError(line: line, reason: .undefinedVariable(name)) }
        return value
    }

    private mutating func define(_ value: UnsafeBufferPointer<UInt8>) throws(PlaylistParseError) {
        guard definedNames.count < options.limits.maximumVariables else {
            throw PlaylistParseError(line: line, reason: .limitExceeded(.variables(options.limits.maximumVariables)))
        }
        let reader = try attributes(value, .define)
        let definition: VariableDefinition
        let resolved: String?
        if let name = reader.string("NAME") {
            let text = try reader.requiredString("VALUE")
            definition = .value(name: name, value: text)
            resolved = text
        } else if let name = reader.string("IMPORT") {
            definition = .import(name: name)
            resolved = try resolveExternal(name, in: options.importedVariables,
                                           unknown: "the imported variable \(name) is unknown outside its multivariant playlist")
        } else if let name = reader.string("QUERYPARAM") {
            definition = .queryParameter(name: name)
            resolved = try resolveExternal(name, in: options.queryParameters,
                                           unknown: "the query parameter \(name) is unknown without the playlist's URL")
        } else {
            throw PlaylistParseError(line: line, reason: .missingAttribute(tag: TagName.define.text, attribute: "NAME"))
        }
        let name = definition.name
        guard !name.isEmpty, name.utf8.allSatisfy({ byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x5F
        }) else {
            throw PlaylistParseError(line: line, reason: .invalidAttribute(tag: TagName.define.text, attribute: "NAME", value: name))
        }
        guard !definedNames.contains(name) else {
            throw PlaylistParseError(line: line, reason: .duplicateVariable(name))
        }
        if let resolved, resolved.utf8.count > options.limits.maximumVariableValueLength {
            throw PlaylistParseError(line: line, reason: .limitExceeded(
                .variableValueLength(options.limits.maximumVariableValueLength)))
        }
        // A value that still holds "{$" would be substituted again by whoever reads the playlist written back:
        // substitution is one pass, so such a value cannot round-trip (and clients disagree on it).
        if let resolved, resolved.contains("{$") {
            throw PlaylistParseError(line: line, reason: .invalidAttribute(
                tag: TagName.define.text, attribute: Self.valueAttribute(of: definition), value: resolved))
        }
        if let resolved { variables[name] = resolved }
        definedNames.insert(name)
        media.definitions.append(definition)
    }

    /// The attribute of EXT-X-DEFINE that gives a definition its value.
    private static func valueAttribute(of definition: VariableDefinition) -> String {
        switch definition {
        case .value: "VALUE"
        case .import: "IMPORT"
        case .queryParameter: "QUERYPARAM"
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
