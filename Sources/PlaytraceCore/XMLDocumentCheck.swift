public import Foundation

/// What an XML document from outside is checked for before Foundation's `XMLParser` reads it (VAST, MPDs).
public enum XMLDocumentCheck {
    /// Whether the bytes hold `<!DOCTYPE` or `<!ENTITY` (any case): one linear pass. A document type declaration
    /// could declare entities that expand without bound, or read local files; neither VAST nor an MPD needs one.
    public static func declaresDocumentType(_ data: Data) -> Bool {
        let markers: [[UInt8]] = [Array("<!DOCTYPE".utf8), Array("<!ENTITY".utf8)]
        let bytes = [UInt8](data)   // (bounded by the parsers' limits on a document's size)
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == UInt8(ascii: "<"), bytes[index + 1] == UInt8(ascii: "!") {
                for marker in markers where index + marker.count <= bytes.count {
                    var matches = true
                    for offset in 2..<marker.count where bytes[index + offset] & 0xDF != marker[offset] {
                        matches = false
                        break
                    }
                    if matches { return true }
                }
            }
            index += 1
        }
        return false
    }
}
