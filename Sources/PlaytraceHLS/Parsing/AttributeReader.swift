import PlaytraceCore

/// Typed access to a tag's attribute list, throwing errors that name the tag, the attribute and the line.
///
/// A reader holds the list's bytes (a copy of the tag's, or the list with its variables substituted) and where
/// each attribute lies in them; values are read from the bytes when asked for.
struct AttributeReader {
    let tag: TagName
    let line: Int
    private let bytes: [UInt8]
    /// The spans, the first ``spanCount`` of them (the parser writes a tag's spans into room it keeps from tag to
    /// tag: a reader still alive when the next tag is read makes the parser copy that room, not overwrite it).
    private let spans: [AttributeSpan]
    private let spanCount: Int
    /// The presence bits of the names in the list (``AttributeListParser/presenceBit(_:)``): a lookup of a name
    /// the tag does not carry, the common case for optional attributes, ends here.
    private let presence: UInt64
    /// The set this reader was resolved against, if any (``resolve(against:)``).
    private var known: AttributeNames?
    /// For each name of ``known``: the index of its first span, or -1 when the list lacks it.
    private var slots = SIMD32<Int8>(repeating: -1)
    /// The spans whose names are in ``known``, one bit each.
    private var knownSpans: UInt64 = 0

    /// A reader over an attribute list's bytes, whose attributes are the first `count` of `spans`.
    init(tag: TagName, line: Int, bytes: [UInt8], spans: [AttributeSpan], count: Int) {
        precondition(count <= spans.count, "more spans than written")
        self.tag = tag
        self.line = line
        self.bytes = bytes
        self.spans = spans
        spanCount = count
        var presence: UInt64 = 0
        for position in 0..<count { presence |= AttributeListParser.presenceBit(spans[position].nameKey) }
        self.presence = presence
    }

    /// Finds the spans of the names in `known` once, so that looking one of them up takes one step, and the
    /// attributes the model does not hold are told apart without comparing names again. Lists too long for the
    /// slots are left as they are (their lookups scan).
    mutating func resolve(against known: AttributeNames) {
        guard spanCount <= 64 else { return }
        self.known = known
        var knownSpans: UInt64 = 0
        var slots = SIMD32<Int8>(repeating: -1)
        bytes.withSpan { bytes in
            for position in 0..<spanCount {
                let span = spans[position]
                guard let index = known.index(of: bytes.extracting(span.nameStart..<span.nameEnd), key: span.nameKey)
                else { continue }
                knownSpans |= 1 << UInt64(position)
                if slots[index] < 0 { slots[index] = Int8(position) }
            }
        }
        self.knownSpans = knownSpans
        self.slots = slots
    }

    private func span(_ name: StaticString) -> AttributeSpan? {
        if let known, let index = known.index(ofLiteral: name) { return span(inSlot: index) }
        let key = AttributeListParser.nameKey(name)
        guard presence & AttributeListParser.presenceBit(key) != 0 else { return nil }
        if let known, let index = known.index(of: name, key: key) { return span(inSlot: index) }
        for span in spans[..<spanCount] where span.nameKey == key {
            let matches = bytes.withSpan { ByteScanning.equal(name, $0.extracting(span.nameStart..<span.nameEnd)) }
            if matches { return span }
        }
        return nil
    }

    /// The span of the name at `index` in ``known``; `nil` when the list lacks it.
    @inline(__always) private func span(inSlot index: Int) -> AttributeSpan? {
        let position = slots[index]
        return position < 0 ? nil : spans[Int(position)]
    }

    /// The span of the name at `index` in `names`: in one step when the reader was resolved against `names`.
    @inline(__always) private func span(at index: Int, of names: AttributeNames) -> AttributeSpan? {
        known === names ? span(inSlot: index) : span(names.names[index])
    }

    /// Reads a value's bytes; `nil` when the attribute is absent.
    private func read<R, E: Error>(_ name: StaticString, _ body: (Span<UInt8>) throws(E) -> R) throws(E) -> R? {
        try read(span(name), body)
    }

    @inline(__always) private func read<R, E: Error>(
        _ span: AttributeSpan?, _ body: (Span<UInt8>) throws(E) -> R
    ) throws(E) -> R? {
        guard let span else { return nil }
        return try bytes.withSpan { bytes throws(E) in try body(bytes.extracting(span.valueStart..<span.valueEnd)) }
    }

    /// Calls `body` with a value's bytes and whether it was quoted; with `nil` when the attribute is absent.
    func withValue<R>(_ name: StaticString, _ body: (_ bytes: Span<UInt8>?, _ isQuoted: Bool) -> R) -> R {
        withValue(of: span(name), body)
    }

    /// ``withValue(_:_:)`` for the name at `index` in `names`: found in one step when the reader was resolved against
    /// `names` (a tag's model reads its attributes in a fixed order, most of them absent).
    func withValue<R>(
        _ index: Int, of names: AttributeNames, _ body: (_ bytes: Span<UInt8>?, _ isQuoted: Bool) -> R
    ) -> R {
        withValue(of: span(at: index, of: names), body)
    }

    @inline(__always) private func withValue<R>(
        of span: AttributeSpan?, _ body: (_ bytes: Span<UInt8>?, _ isQuoted: Bool) -> R
    ) -> R {
        guard let span else { return body(nil, false) }
        return bytes.withSpan { bytes in body(bytes.extracting(span.valueStart..<span.valueEnd), span.isQuoted) }
    }

    /// The size of the attribute list read: the values of its attributes take no more.
    var byteCount: Int { bytes.count }

    private func text(_ bytes: Span<UInt8>) -> String { ByteScanning.string(bytes) }

    func missing(_ name: StaticString) -> PlaylistParseError {
        PlaylistParseError(line: line, reason: .missingAttribute(tag: tag.text, attribute: name.description))
    }

    func invalid(_ name: StaticString, _ value: String) -> PlaylistParseError {
        PlaylistParseError(line: line, reason: .invalidAttribute(tag: tag.text, attribute: name.description, value: value))
    }

    private func invalid(_ name: StaticString, _ value: Span<UInt8>) -> PlaylistParseError {
        invalid(name, text(value))
    }

    func string(_ name: StaticString) -> String? { read(name) { text($0) } }

    func requiredString(_ name: StaticString) throws(PlaylistParseError) -> String {
        guard let value = string(name) else { throw missing(name) }
        return value
    }

    /// A value read by `parse`; an error naming the attribute when `parse` cannot read it.
    private func parsed<Value>(_ name: StaticString, _ parse: (Span<UInt8>) -> Value?)
        throws(PlaylistParseError) -> Value?
    {
        try parsed(span(name), name: { name }, parse)
    }

    /// ``parsed(_:_:)`` of the name at `index` in `names` (``span(at:of:)``).
    @inline(__always) private func parsed<Value>(
        _ index: Int, of names: AttributeNames, _ parse: (Span<UInt8>) -> Value?
    ) throws(PlaylistParseError) -> Value? {
        try parsed(span(at: index, of: names), name: { names.names[index] }, parse)
    }

    /// `name` is asked for only to report a value `parse` cannot read.
    @inline(__always) private func parsed<Value>(
        _ span: AttributeSpan?, name: () -> StaticString, _ parse: (Span<UInt8>) -> Value?
    ) throws(PlaylistParseError) -> Value? {
        try read(span) { bytes throws(PlaylistParseError) in
            guard let value = parse(bytes) else { throw invalid(name(), bytes) }
            return value
        }
    }

    func integer(_ name: StaticString) throws(PlaylistParseError) -> Int? { try parsed(name, ByteScanning.integer) }

    /// ``integer(_:)`` of the name at `index` in `names`: in one step when the reader was resolved against them
    /// (the parser's hot tags read their attributes so).
    func integer(_ index: Int, of names: AttributeNames) throws(PlaylistParseError) -> Int? {
        try parsed(index, of: names, ByteScanning.integer)
    }

    /// The text of the name at `index` in `names`, or `nil` when the list lacks it.
    func string(_ index: Int, of names: AttributeNames) -> String? { read(span(at: index, of: names)) { text($0) } }

    func requiredInteger(_ name: StaticString) throws(PlaylistParseError) -> Int {
        guard let number = try integer(name) else { throw missing(name) }
        return number
    }

    /// A decimal of at most ``MediaTime/maximumDocumentSeconds`` in magnitude: every decimal attribute of HLS is a
    /// time, a rate or a score, and a larger one is an invalid value rather than a number sums cannot hold.
    func decimal(_ name: StaticString) throws(PlaylistParseError) -> Double? { try parsed(name, ByteScanning.boundedDecimal) }

    /// ``decimal(_:)`` of the name at `index` in `names` (see ``integer(_:of:)``).
    func decimal(_ index: Int, of names: AttributeNames) throws(PlaylistParseError) -> Double? {
        try parsed(index, of: names, ByteScanning.boundedDecimal)
    }

    func requiredDecimal(_ name: StaticString) throws(PlaylistParseError) -> Double {
        guard let number = try decimal(name) else { throw missing(name) }
        return number
    }

    func nonNegativeDecimal(_ name: StaticString) throws(PlaylistParseError) -> Double? {
        guard let number = try decimal(name) else { return nil }
        guard number >= 0 else { throw invalid(name, String(number)) }
        return number
    }

    /// `YES` is true; `NO` or absence is false; anything else is an error.
    func flag(_ name: StaticString) throws(PlaylistParseError) -> Bool {
        try read(name) { bytes throws(PlaylistParseError) in
            if bytes.count == 3, bytes[0] == 0x59, bytes[1] == 0x45, bytes[2] == 0x53 { return true }  // YES
            if bytes.count == 2, bytes[0] == 0x4E, bytes[1] == 0x4F { return false }  // NO
            throw invalid(name, bytes)
        } ?? false
    }

    func date(_ name: StaticString) throws(PlaylistParseError) -> StreamDate? {
        try parsed(name) { StreamDate(iso8601UTF8: $0) }
    }

    /// `WIDTHxHEIGHT`, two decimal integers.
    func resolution(_ name: StaticString) throws(PlaylistParseError) -> Resolution? {
        try parsed(name, Self.resolution)
    }

    /// ``resolution(_:)`` of the name at `index` in `names` (see ``integer(_:of:)``).
    func resolution(_ index: Int, of names: AttributeNames) throws(PlaylistParseError) -> Resolution? {
        try parsed(index, of: names, Self.resolution)
    }

    private static func resolution(_ bytes: Span<UInt8>) -> Resolution? {
        let x = ByteScanning.firstIndex(of: 0x78, or: 0x78, in: bytes, from: 0)
        guard x < bytes.count, let width = ByteScanning.integer(bytes.extracting(..<x)),
              let height = ByteScanning.integer(bytes.extracting((x + 1)...))
        else { return nil }
        return Resolution(width: width, height: height)
    }

    /// A quoted `length[@offset]` byte range.
    func byteRange(_ name: StaticString) throws(PlaylistParseError) -> ByteRange? {
        try parsed(name) { ByteRangeParsing.parse(bytes: $0) }
    }

    /// The attributes whose names are not in `known`, as written, in order: what the tag's model keeps besides
    /// its own fields.
    func attributes(excluding known: AttributeNames) -> AttributeList {
        bytes.withSpan { bytes in
            var list = AttributeList()
            let resolved = self.known === known
            if resolved, knownSpans.nonzeroBitCount == spanCount { return list }
            for position in 0..<spanCount {
                let span = spans[position]
                let name = bytes.extracting(span.nameStart..<span.nameEnd)
                if resolved {
                    guard knownSpans & (1 << UInt64(position)) == 0 else { continue }
                } else {
                    guard !known.contains(name, key: span.nameKey) else { continue }
                }
                let value = text(bytes.extracting(span.valueStart..<span.valueEnd))
                list.append(text(name), span.isQuoted ? .quoted(value) : .unquoted(value))
            }
            return list
        }
    }
}

enum ByteRangeParsing {
    /// `length[@offset]`, decimal integers with nothing around them.
    static func parse(bytes: Span<UInt8>) -> ByteRange? {
        var at = 0
        while at < bytes.count, bytes[at] != 0x40 { at += 1 }
        guard let length = ByteScanning.integer(bytes.extracting(0..<at)) else { return nil }
        guard at < bytes.count else { return ByteRange(length: length) }
        guard let offset = ByteScanning.integer(bytes.extracting((at + 1)...)),
              offset.addingChecked(length) != nil  // the range's end must be a number too
        else { return nil }
        return ByteRange(length: length, offset: offset)
    }
}
