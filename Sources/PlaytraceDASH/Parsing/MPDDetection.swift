/// Whether a document is an MPD, by its content (a URL's extension or a `Content-Type` says nothing reliable): its
/// first element, after the XML declaration, comments and processing instructions, is `MPD` (with or without a
/// namespace prefix), or its document type declaration names `MPD`.
///
/// ```swift
/// MPDDetection.isMPD(Array("<?xml version=\"1.0\"?>\n<MPD type=\"static\"/>".utf8))   // true
/// ```
public enum MPDDetection {
    /// How far the first element is looked for.
    public static let scanLimit = 64 << 10

    public static func isMPD(_ bytes: some Collection<UInt8>) -> Bool {
        var rest = bytes.prefix(scanLimit)[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        while true {
            rest = rest.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
            guard rest.first == UInt8(ascii: "<") else { return false }
            let afterOpening = rest.dropFirst()
            if afterOpening.first == UInt8(ascii: "?") {
                guard let end = afterOpening.firstRange(of: Array("?>".utf8)) else { return false }
                rest = afterOpening[end.upperBound...]
            } else if afterOpening.starts(with: Array("!--".utf8)) {
                guard let end = afterOpening.firstRange(of: Array("-->".utf8)) else { return false }
                rest = afterOpening[end.upperBound...]
            } else if afterOpening.starts(with: Array("!DOCTYPE".utf8)) {
                // A document type names the root element (the parser refuses the declaration, and says so).
                let name = afterOpening.dropFirst(8).drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
                    .prefix { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D && $0 != UInt8(ascii: "[") && $0 != UInt8(ascii: ">") }
                let local = name.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false).last ?? name[...]
                return local.elementsEqual("MPD".utf8)
            } else {
                let name = afterOpening.prefix { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D && $0 != UInt8(ascii: ">") && $0 != UInt8(ascii: "/") }
                let local = name.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false).last ?? name[...]
                return local.elementsEqual("MPD".utf8)
            }
        }
    }
}
