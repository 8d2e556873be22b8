import Foundation

/// The one path outside text takes to a line a person reads (a terminal, a log, a report's text).
public enum PlainText {
    /// An error in plain words: the system's message for file and POSIX errors (never `NSCocoaErrorDomain
    /// Code=260`), the error's own description otherwise.
    public static func describe(_ error: any Error) -> String {
        if let error = error as? POSIXError { return String(cString: strerror(error.code.rawValue)) }
        if let error = error as? CocoaError {
            if let underlying = error.userInfo[NSUnderlyingErrorKey] as? POSIXError {
                return String(cString: strerror(underlying.code.rawValue))
            }
            switch error.code {
            case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file or directory"
            case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
            case .fileWriteOutOfSpace: return "no space left on the device"
            case .fileReadTooLarge: return "the file is too large"
            case .fileReadCorruptFile, .fileReadInapplicableStringEncoding: return "the file cannot be read"
            case .fileWriteFileExists: return "the file already exists"
            case .fileWriteVolumeReadOnly: return "the file system is read-only"
            default: break
            }
        }
        let nsError = error as NSError
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        return String(describing: error)
    }

    /// The text with what a terminal would act on instead of showing — control characters (line breaks too, so
    /// that a message stays one line), escape sequences, C1 and bidirectional controls — written as visible
    /// escapes (`\u{1B}`), so that bytes from the network never drive the user's terminal.
    ///
    /// URLs' passwords are replaced by `***` first (``URLRedaction``): a line never shows a credential.
    public static func safe(_ text: String) -> String {
        let text = URLRedaction.redacting(text)
        // Printable ASCII, nearly every line, is settled over the bytes (in place: a report checks a megabyte of
        // lines); anything else is looked at by scalar.
        @inline(__always) func isPrintableASCII(_ byte: UInt8) -> Bool { byte >= 0x20 && byte < 0x7F }
        let printable = text.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes where !isPrintableASCII(byte) { return false }
            return true
        } ?? text.utf8.allSatisfy(isPrintableASCII)
        guard !printable else { return text }
        guard text.unicodeScalars.contains(where: isControlToEscape) else { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if isControlToEscape(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isControlToEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20: scalar != "\t"
        case 0x7F..<0xA0, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true  // C1, line and bidi controls
        default: false
        }
    }
}
