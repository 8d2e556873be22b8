import PlaytraceDASH

/// A segment's URL as text, resolved against its base URL without Foundation's `URL` when the path allows: a
/// live playlist names every segment of its window at each refresh, and a template's path (`v1/1234.m4s`) is a
/// plain relative reference whose resolution is the base's directory followed by it (RFC 3986 5.2.2 with no dot
/// segments). Anything else (a leading `/`, a scheme, dot segments, characters outside the plain set) goes through
/// `URL`, as before.
enum SegmentURLJoin {
    /// The URL of `path` at `base` (whose ``directory(of:)`` is `directory`), as text; `nil` when it cannot be made.
    static func join(_ path: String?, at base: ResolvedBaseURL, directory: String?) -> String? {
        guard let path, !path.isEmpty else { return base.url.absoluteString }
        if let directory, isPlain(path) { return directory + path }
        return SegmentReference(number: 0, time: 0, start: .zero, duration: .zero, path: path).urls(at: [base]).first?
            .absoluteString
    }

    /// The base up to its last `/` before a query or fragment; `nil` when it has no path to end.
    static func directory(of base: String) -> String? {
        let utf8 = base.utf8
        let end = utf8.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? utf8.endIndex
        guard let slash = utf8[..<end].lastIndex(of: UInt8(ascii: "/")),
              let scheme = utf8.firstRange(of: "://".utf8), slash >= scheme.upperBound else { return nil }
        // "https://host" has no path (its last slash is the scheme's): left to `URL`.
        return String(base[...slash])
    }

    /// A relative path with no scheme, no leading `/`, no dot segments and only unreserved, sub-delimiter and path
    /// characters (`%` left to `URL`, which checks its escapes).
    static func isPlain(_ path: String) -> Bool {
        var previous: UInt8 = UInt8(ascii: "/")
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "~"),
                 UInt8(ascii: "="), UInt8(ascii: "&"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
                 UInt8(ascii: "?"):
                break
            case UInt8(ascii: "."):
                // A dot segment starts with a dot after a slash ("./", "../", or a final "." or "..").
                if previous == UInt8(ascii: "/") { return false }
            case UInt8(ascii: "/"):
                // A leading slash (the path is absolute) or an empty segment: left to `URL`.
                if previous == UInt8(ascii: "/") { return false }
            default:
                return false
            }
            previous = byte
        }
        return true
    }
}
