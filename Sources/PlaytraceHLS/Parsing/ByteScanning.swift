import PlaytraceCore

/// Low-level reading of numbers and text from UTF-8 bytes, shared by the playlist parser.
enum ByteScanning {
    /// 10^exponent for 0 ≤ exponent ≤ 22: every one of them is exact in a Double.
    @inline(__always) static func powerOfTen(_ exponent: Int) -> Double {
        switch exponent {
        case 0: return 1
        case 1: return 1e1
        case 2: return 1e2
        case 3: return 1e3
        case 4: return 1e4
        case 5: return 1e5
        case 6: return 1e6
        case 7: return 1e7
        case 8: return 1e8
        case 9: return 1e9
        case 10: return 1e10
        case 11: return 1e11
        case 12: return 1e12
        case 13: return 1e13
        case 14: return 1e14
        case 15: return 1e15
        case 16: return 1e16
        case 17: return 1e17
        case 18: return 1e18
        case 19: return 1e19
        case 20: return 1e20
        case 21: return 1e21
        default: return 1e22
        }
    }

    /// Reads a decimal integer (`0`–`9` only); `nil` on any other byte, on overflow, or on empty input.
    static func integer(_ bytes: Span<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 19 else { return bytes.count > 19 ? bigInteger(bytes) : nil }
        var value = 0
        for index in bytes.indices {
            let digit = Int(bytes[index]) &- 48
            guard digit >= 0, digit <= 9 else { return nil }
            value = value &* 10 &+ digit
        }
        return value
    }

    private static func bigInteger(_ bytes: Span<UInt8>) -> Int? {
        var value = 0
        for index in bytes.indices {
            let digit = Int(bytes[index]) &- 48
            guard digit >= 0, digit <= 9 else { return nil }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(digit)
            guard !overflow1, !overflow2 else { return nil }
            value = sum
        }
        return value
    }

    /// ``decimal(_:)`` when its magnitude is at most ``MediaTime/maximumDocumentSeconds``; `nil` otherwise.
    static func boundedDecimal(_ bytes: Span<UInt8>) -> Double? {
        guard let value = decimal(bytes), value.isWithin(magnitude: MediaTime.maximumDocumentSeconds) else { return nil }
        return value
    }

    /// The largest media sequence, discontinuity sequence or skipped-segment count a playlist may state: half of
    /// `Int.max`, so that a sequence number plus the segments skipped and listed is still a number.
    static let maximumSequenceNumber = Int.max / 2

    /// Reads a signed decimal floating-point number such as `6.006` or `-12`, correctly rounded.
    ///
    /// The common case (at most 15 significant digits, no exponent) is computed exactly with one division, which
    /// IEEE 754 rounds correctly; anything else goes through the standard library's parser.
    static func decimal(_ bytes: Span<UInt8>) -> Double? {
        guard !bytes.isEmpty else { return nil }
        var index = 0
        var negative = false
        if bytes[0] == 0x2D || bytes[0] == 0x2B {
            negative = bytes[0] == 0x2D
            index = 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var seenPoint = false
        var any = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x30 && byte <= 0x39 {
                any = true
                if mantissa != 0 || byte != 0x30 { digits += 1 }
                guard digits <= 15 else { return slowDecimal(bytes) }
                mantissa = mantissa * 10 + UInt64(byte - 0x30)
                if seenPoint { fractionDigits += 1 }
            } else if byte == 0x2E && !seenPoint {
                seenPoint = true
            } else if byte == 0x65 || byte == 0x45 {
                return slowDecimal(bytes)
            } else {
                return nil
            }
            index += 1
        }
        guard any, fractionDigits <= 22 else { return any ? slowDecimal(bytes) : nil }
        let value = Double(mantissa) / powerOfTen(fractionDigits)
        return negative ? -value : value
    }

    private static func slowDecimal(_ bytes: Span<UInt8>) -> Double? {
        guard let value = Double(bytes.decodedString), value.isFinite else { return nil }
        return value
    }

    /// The bytes without the spaces, tabs and carriage returns at both ends: `bytes.extracting(trimmed(bytes))`.
    @inline(__always)
    static func trimmed(_ bytes: Span<UInt8>) -> Range<Int> {
        var start = 0
        var end = bytes.count
        while start < end, isBlank(bytes[start]) { start += 1 }
        while end > start, isBlank(bytes[end - 1]) { end -= 1 }
        return start..<end
    }

    @inline(__always) static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }

    /// Whether a byte is a control character other than tab (C0 or DEL): not allowed in attribute values or URIs.
    @inline(__always) static func isControl(_ byte: UInt8) -> Bool { (byte < 0x20 && byte != 0x09) || byte == 0x7F }

    /// Whether two byte sequences are the same.
    @inline(__always) static func equal(_ lhs: Span<UInt8>, _ rhs: Span<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for index in lhs.indices where lhs[index] != rhs[index] { return false }
        return true
    }

    /// Whether an array and bytes are the same.
    @inline(__always) static func equal(_ lhs: [UInt8], _ rhs: Span<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for index in rhs.indices where lhs[index] != rhs[index] { return false }
        return true
    }

    /// Whether a literal and bytes are the same.
    @inline(__always) static func equal(_ lhs: StaticString, _ rhs: Span<UInt8>) -> Bool {
        lhs.withSpan { equal($0, rhs) }
    }

    /// The bytes as text (invalid UTF-8 repaired).
    static func string(_ bytes: Span<UInt8>) -> String { bytes.decodedString }

    /// What one pass over a line's bytes finds.
    struct TextScan {
        var isASCII = true
        var hasControl = false
        var hasVariableReference = false
    }

    /// Scans text once for non-ASCII bytes, control characters and `{$` variable references: one table lookup per
    /// byte (`$` is looked at again, in its context, only when the text holds one).
    static func scan(_ bytes: Span<UInt8>) -> TextScan {
        let table = byteClasses
        var seen: UInt8 = 0
        for index in bytes.indices { seen |= table[Int(bytes[index])] }
        var result = TextScan()
        result.isASCII = seen & ByteClass.nonASCII == 0
        result.hasControl = seen & ByteClass.control != 0
        if seen & ByteClass.dollar != 0 {
            for index in bytes.indices.dropFirst() where bytes[index] == 0x24 && bytes[index - 1] == 0x7B {
                result.hasVariableReference = true
                break
            }
        }
        return result
    }

    /// The classes of bytes ``scan(_:)`` looks for, as bits.
    private enum ByteClass {
        static let nonASCII: UInt8 = 1
        /// C0 controls but tab, and DEL.
        static let control: UInt8 = 2
        static let dollar: UInt8 = 4
    }

    /// Each byte's classes.
    private static let byteClasses: [UInt8] = (0...255).map { (byte: Int) -> UInt8 in
        if byte >= 0x80 { return ByteClass.nonASCII }
        if (byte < 0x20 && byte != 0x09) || byte == 0x7F { return ByteClass.control }
        return byte == 0x24 ? ByteClass.dollar : 0
    }

    /// The index of the first byte at or after `start` equal to `first` or `second`; `bytes.count` when there is
    /// none.
    @inline(__always) static func firstIndex(
        of first: UInt8, or second: UInt8, in bytes: Span<UInt8>, from start: Int
    ) -> Int {
        var index = start
        while index < bytes.count, bytes[index] != first, bytes[index] != second { index += 1 }
        return index
    }

    /// Whether a comma-separated list is already as the parser keeps it: not empty, no blank (space, tab, carriage
    /// return) anywhere, no comma first or last and no two commas in a row. Control bytes are refused before values
    /// are read, so a byte below `!` is a blank. (A `false` sends the list to be tidied, which changes nothing in a
    /// tidy one.)
    static func isTidyList(_ bytes: Span<UInt8>) -> Bool {
        guard !bytes.isEmpty, bytes[0] != 0x2C, bytes[bytes.count - 1] != 0x2C else { return false }
        var previous: UInt8 = 0
        for index in bytes.indices {
            let byte = bytes[index]
            guard byte > 0x20, byte != 0x2C || previous != 0x2C else { return false }
            previous = byte
        }
        return true
    }

    /// Decodes UTF-8 text, or `nil` when it is not valid UTF-8 (ASCII, the common case, is not re-validated).
    @inline(__always) static func validString(_ bytes: Span<UInt8>, isASCII: Bool) -> String? {
        isASCII ? bytes.decodedString : bytes.validatedString
    }
}
