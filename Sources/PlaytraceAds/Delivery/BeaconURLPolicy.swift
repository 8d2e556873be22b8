public import Foundation

/// Which beacon URLs are requested: only `http` and `https` ones (a protocol-relative `//host/…` is `https`).
/// `about:blank`, the placeholder VAST and MediaTailor use, is skipped without a request; anything else
/// (`ftp:`, `javascript:`, `file:`, text that is not a URL) is refused and reported.
public enum BeaconURLPolicy {
    /// What to do with one URL.
    public enum Verdict: Sendable, Hashable {
        case request(URL)
        /// Nothing to request (`about:blank`); the event counts as reported.
        case skip
        /// Never requested, for this reason.
        case refuse(String)
    }

    public static func verdict(for text: String) -> Verdict {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return .refuse("an empty URL") }
        if trimmed.lowercased() == "about:blank" { return .skip }
        let candidate = trimmed.hasPrefix("//") ? "https:" + trimmed : trimmed
        guard let url = URL(string: candidate), let scheme = url.scheme?.lowercased() else {
            return .refuse("not a URL: \(String(trimmed.prefix(80)))")
        }
        guard scheme == "http" || scheme == "https" else {
            return .refuse("the \(scheme): scheme is never requested")
        }
        guard let host = url.host, !host.isEmpty else { return .refuse("no host in \(String(trimmed.prefix(80)))") }
        return .request(url)
    }
}
