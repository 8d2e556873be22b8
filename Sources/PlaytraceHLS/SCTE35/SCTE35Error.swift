/// Why a SCTE-35 message could not be decoded.
public enum SCTE35Error: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text is neither `0x…` hexadecimal nor base64.
    case invalidEncoding(String)
    /// The message ends before a field it announces.
    case truncated(at: Int)
    /// `table_id` is not 0xFC.
    case invalidTableID(UInt8)
    /// `section_length` does not match the bytes.
    case invalidSectionLength(declared: Int, available: Int)
    /// The CRC-32 does not match the section.
    case crcMismatch(expected: UInt32, computed: UInt32)
    /// A splice descriptor claims more bytes than its loop holds.
    case invalidDescriptorLength(at: Int)

    public var description: String {
        switch self {
        case .invalidEncoding(let text): return "not hexadecimal or base64: \"\(text.prefix(40))\""
        case .truncated(let offset): return "the message is truncated at byte \(offset)"
        case .invalidTableID(let id): return "table_id is 0x\(String(id, radix: 16)), not 0xfc"
        case .invalidSectionLength(let declared, let available):
            return "section_length is \(declared) but \(available) bytes follow"
        case .crcMismatch(let expected, let computed):
            return "CRC-32 mismatch: the message says 0x\(String(expected, radix: 16)), the bytes give 0x\(String(computed, radix: 16))"
        case .invalidDescriptorLength(let offset): return "a splice descriptor at byte \(offset) overruns its loop"
        }
    }
}
