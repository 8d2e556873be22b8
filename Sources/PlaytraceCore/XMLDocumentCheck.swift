public import Foundation

/// What an XML document from outside is checked for before Foundation's `XMLParser` reads it (VAST, MPDs).
public enum XMLDocumentCheck {
    /// Whether the bytes hold `<!DOCTYPE` or `<!ENTITY` (any case): one linear pass. A document type declaration
    /// could declare entities that expand without bound, or read local files; neither VAST nor an MPD needs one.
    public static func declaresDocumentType(_ data: Data) -> Bool {
        let bytes = data.span
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == UInt8(ascii: "<"), bytes[index + 1] == UInt8(ascii: "!"),
               matches(doctype, in: bytes, at: index) || matches(entity, in: bytes, at: index) {
                return true
            }
            index += 1
        }
        return false
    }

    private static let doctype = Array("<!DOCTYPE".utf8)
    private static let entity = Array("<!ENTITY".utf8)

    /// Whether `marker` (ASCII capitals after its first two bytes) is at `index`, in any case.
    private static func matches(_ marker: [UInt8], in bytes: Span<UInt8>, at index: Int) -> Bool {
        guard index + marker.count <= bytes.count else { return false }
        for offset in 2..<marker.count where bytes[index + offset] & 0xDF != marker[offset] { return false }
        return true
    }

    /// Whether the bytes are UTF-8, checked in place (no copy). Foundation's `XMLParser` on Linux crashes on element
    /// names that are not UTF-8.
    public static func isUTF8(_ data: Data) -> Bool {
        (try? UTF8Span(validating: data.span)) != nil
    }

    /// The bytes with each processing instruction that has no data (`<?name?>`) blanked out, its bytes made spaces
    /// (lines and columns unchanged). Foundation's `XMLParser` on Linux dereferences the missing data of such an
    /// instruction and crashes the process whenever it has a delegate; players ignore processing instructions.
    /// One linear pass, read in place; the data is returned as is (not copied) when there is none.
    public static func blankingEmptyProcessingInstructions(_ data: Data) -> Data {
        let bytes = data.span
        var blanks: [Range<Int>] = []
        var index = 0
        while index + 1 < bytes.count {
            guard bytes[index] == UInt8(ascii: "<"), bytes[index + 1] == UInt8(ascii: "?") else {
                index += 1
                continue
            }
            index = processingInstruction(in: bytes, at: index, blanks: &blanks)
        }
        return blanking(blanks, in: data)
    }

    /// ``declaresDocumentType(_:)`` and ``blankingEmptyProcessingInstructions(_:)`` in one pass, as a parser needs
    /// both: `nil` when the bytes declare a document type, else the bytes with each instruction without data blanked.
    public static func screened(_ data: Data) -> Data? {
        let bytes = data.span
        var blanks: [Range<Int>] = []
        var index = 0
        while index + 1 < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            switch bytes[index + 1] {
            case UInt8(ascii: "!"):
                if matches(doctype, in: bytes, at: index) || matches(entity, in: bytes, at: index) { return nil }
                index += 2
            case UInt8(ascii: "?"):
                index = processingInstruction(in: bytes, at: index, blanks: &blanks)
            default:
                index += 1
            }
        }
        return blanking(blanks, in: data)
    }

    /// Reads the processing instruction that opens at `index` (`<?`): one without data is added to `blanks`. Returns
    /// where reading goes on.
    private static func processingInstruction(in bytes: Span<UInt8>, at index: Int, blanks: inout [Range<Int>]) -> Int {
        var end = index + 2
        while end < bytes.count, !isSpace(bytes[end]), bytes[end] != UInt8(ascii: "?"), bytes[end] != UInt8(ascii: "<") {
            end += 1
        }
        if end + 1 < bytes.count, bytes[end] == UInt8(ascii: "?"), bytes[end + 1] == UInt8(ascii: ">") {
            blanks.append(index..<(end + 2))
            return end + 2
        }
        return end
    }

    /// `data` with the bytes of `blanks` made spaces; `data` itself when there are none.
    private static func blanking(_ blanks: [Range<Int>], in data: Data) -> Data {
        guard !blanks.isEmpty else { return data }
        var copy = [UInt8](data)   // (bounded by the parsers' limits on a document's size)
        for range in blanks { for position in range { copy[position] = 0x20 } }
        return Data(copy)
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// Why a parse did not read a well-formed document, or `nil` when it did. Foundation's `XMLParser` on Linux
    /// returns `true` from `parse()` for a document cut short or with content after its root (libxml2's error 5),
    /// and reports an undeclared namespace prefix (errors 200–299) as an error although the document reads whole:
    /// the first is a failure (a truncated download must not read as a shorter document), the second is not.
    public static func wellFormednessFailure(succeeded: Bool, error: (any Error)?) -> String? {
        guard let error = error.map({ $0 as NSError }) else { return succeeded ? nil : "malformed XML" }
        if (200..<300).contains(error.code) { return succeeded ? nil : "malformed XML (error \(error.code))" }
        return switch error.code {
        case 5: "the document ends before its elements close, or goes on after its root element"
        case 4: "the document is empty"
        case 26: "an undeclared entity"
        case 41, 73, 76: "an element is not closed as it was opened"
        case 42: "an attribute written twice"
        default: "libxml2 error \(error.code)"
        }
    }
}
