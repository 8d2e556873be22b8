import PlaytraceCore

/// Typed access to an attribute list, throwing errors that name the tag, the attribute and the line.
struct AttributeReader {
    let list: AttributeList
    let tag: TagName
    let line: Int

    func missing(_ name: String) -> PlaylistParseError {
        PlaylistParseError(line: line, reason: .missingAttribute(tag: tag.text, attribute: name))
    }

    func invalid(_ name: String, _ value: String) -> PlaylistParseError {
        PlaylistParseError(line: line, reason: .invalidAttribute(tag: tag.text, attribute: name, value: value))
    }

    func string(_ name: String) -> String? { list[name]?.text }

    func requiredString(_ name: String) throws(PlaylistParseError) -> String {
        guard let value = list[name] else { throw missing(name) }
        return value.text
    }

    func integer(_ name: String) throws(PlaylistParseError) -> Int? {
        guard let value = list[name] else { return nil }
        var text = value.text
        guard let number = text.withUTF8({ ByteScanning.integer($0) }) else { throw invalid(name, value.text) }
        return number
    }

    func requiredInteger(_ name: String) throws(PlaylistParseError) -> Int {
        guard let number = try integer(name) else { throw missing(name) }
        return number
    }

    func decimal(_ name: String) throws(PlaylistParseError) -> Double? {
        guard let value = list[name] else { return nil }
        var text = value.text
        guard let number = text.withUTF8({ ByteScanning.decimal($0) }) else { throw invalid(name, value.text) }
        return number
    }

    func requiredDecimal(_ name: String) throws(PlaylistParseError) -> Double {
        guard let number = try decimal(name) else { throw missing(name) }
        return number
    }

    func nonNegativeDecimal(_ name: String) throws(PlaylistParseError) -> Double? {
        guard let number = try decimal(name) else { return nil }
        guard number >= 0 else { throw invalid(name, String(number)) }
        return number
    }

    /// `YES` is true; `NO` or absence is false; anything else is an error.
    func flag(_ name: String) throws(PlaylistParseError) -> Bool {
        guard let value = list[name]?.text else { return false }
        switch value {
        case "YES": return true
        case "NO": return false
        default: throw invalid(name, value)
        }
    }

    func date(_ name: String) throws(PlaylistParseError) -> StreamDate? {
        guard let value = list[name]?.text else { return nil }
        do { return try StreamDate(iso8601: value) } catch { throw invalid(name, value) }
    }

    /// `WIDTHxHEIGHT`, two decimal integers.
    func resolution(_ name: String) throws(PlaylistParseError) -> Resolution? {
        guard let value = list[name]?.text else { return nil }
        var text = value
        let resolution = text.withUTF8 { bytes -> Resolution? in
            guard let x = bytes.firstIndex(of: 0x78),
                  let width = ByteScanning.integer(UnsafeBufferPointer(rebasing: bytes[..<x])),
                  let height = ByteScanning.integer(UnsafeBufferPointer(rebasing: bytes[(x + 1)...]))
            else { return nil }
            return Resolution(width: width, height: height)
        }
        guard let resolution else { throw invalid(name, value) }
        return resolution
    }

    /// A quoted `length[@offset]` byte range.
    func byteRange(_ name: String) throws(PlaylistParseError) -> ByteRange? {
        guard let value = list[name]?.text else { return nil }
        guard let range = ByteRangeParsing.parse(value) else { throw invalid(name, value) }
        return range
    }
}

enum ByteRangeParsing {
    static func parse(_ text: String) -> ByteRange? {
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    /// `length[@offset]`, decimal integers with nothing around them.
    static func parse(bytes: UnsafeBufferPointer<UInt8>) -> ByteRange? {
        var at = 0
        while at < bytes.count, bytes[at] != 0x40 { at += 1 }
        guard let length = ByteScanning.integer(UnsafeBufferPointer(rebasing: bytes[0..<at])) else { return nil }
        guard at < bytes.count else { return ByteRange(length: length) }
        guard let offset = ByteScanning.integer(UnsafeBufferPointer(rebasing: bytes[(at + 1)...])) else { return nil }
        return ByteRange(length: length, offset: offset)
    }
}
