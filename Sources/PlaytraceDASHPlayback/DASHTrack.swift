public import Foundation
public import PlaytraceDASH

/// One track of a DASH presentation as an HLS engine plays it: a rung of the ladder at one of its locations (a
/// variant), or an audio or text adaptation set (a rendition). It follows the presentation across periods: an
/// ad period's representations are other elements with other ids, and the track finds its counterpart in each.
///
/// A track is named by a URL, the MPD's with a fragment (`manifest.mpd#video=2`, `#video=2&location=1`,
/// `#audio=en%3Amain`), which is what an engine lists as a variant's or rendition's URL and asks for again when it
/// wants the track's segments.
public enum DASHTrack: Sendable, Hashable {
    /// A rung of the ladder (0: the lowest bandwidth), its segments at one of the representation's base URL
    /// locations (0: the first; the others to fail over to).
    case rung(Int, location: Int)
    /// An audio or text adaptation set, by ``DASHLadder/Rendition/key``.
    case rendition(MediaKind, key: String)

    /// The URL naming this track, `base` being the MPD's URL when the presentation was loaded.
    public func url(base: URL) -> URL {
        var components = URLComponents(url: base, resolvingAgainstBaseURL: true) ?? URLComponents()
        switch self {
        case .rung(let rung, let location):
            components.percentEncodedFragment = location == 0 ? "video=\(rung)" : "video=\(rung)&location=\(location)"
        case .rendition(let kind, let key):
            components.percentEncodedFragment = "\(kind.rawValue)=\(Self.encoded(key))"
        }
        return components.url ?? base
    }

    /// The track a URL names, when it is `base` with a track's fragment.
    public init?(url: URL, base: URL) {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true),
              let fragment = components.percentEncodedFragment else { return nil }
        components.percentEncodedFragment = nil
        guard var baseComponents = URLComponents(url: base, resolvingAgainstBaseURL: true) else { return nil }
        baseComponents.percentEncodedFragment = nil
        guard components.url == baseComponents.url else { return nil }
        var fields: [Substring: Substring] = [:]
        for pair in fragment.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            fields[parts[0]] = parts[1]
        }
        if let rung = fields["video"].flatMap({ Int($0) }), rung >= 0 {
            let location = fields["location"].flatMap { Int($0) } ?? 0
            guard location >= 0 else { return nil }
            self = .rung(rung, location: location)
        } else if let key = fields["audio"]?.removingPercentEncoding {
            self = .rendition(.audio, key: key)
        } else if let key = fields["text"]?.removingPercentEncoding {
            self = .rendition(.text, key: key)
        } else {
            return nil
        }
    }

    /// ASCII letters, digits and RFC 3986's other unreserved characters: everything else in a key is escaped.
    private static let keyCharacters = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private static func encoded(_ key: String) -> String {
        key.addingPercentEncoding(withAllowedCharacters: keyCharacters) ?? ""
    }
}
