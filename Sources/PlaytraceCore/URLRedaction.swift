public import Foundation

/// Credentials in URLs (`https://user:password@host/…`) are used for their own origin's requests and shown nowhere:
/// every text that leaves Playtrace for a person or a file (terminal lines, the summary, the report, logs, telemetry)
/// passes through ``redacting(_:)``, which keeps the user name and replaces the password with `***`.
///
/// ```swift
/// URLRedaction.redacting("GET https://ops:s3cret@origin.example.com/live.m3u8 failed")
/// // "GET https://ops:***@origin.example.com/live.m3u8 failed"
/// URLRedaction.redacting("https://ghp_token@host/x")   // "https://***@host/x": a lone user name can be a token
/// ```
public enum URLRedaction {
    /// The text with the password of every URL in it replaced by `***` (a URL with a user name alone: the name).
    public static func redacting(_ text: String) -> String {
        // Nearly every text has no `@`: one scan settles it.
        guard text.utf8.contains(0x40), text.contains("://") else { return text }
        var result = ""
        var rest = Substring(text)
        while let scheme = rest.range(of: "://") {
            result += rest[..<scheme.upperBound]
            rest = rest[scheme.upperBound...]
            let authorityEnd = rest.firstIndex { "/?#\"' <>\t\n\r\\".contains($0) } ?? rest.endIndex
            let authority = rest[..<authorityEnd]
            guard let at = authority.lastIndex(of: "@") else { continue }
            let userInformation = authority[..<at]
            if let colon = userInformation.firstIndex(of: ":") {
                result += userInformation[..<colon] + ":***"
            } else {
                result += "***"
            }
            rest = rest[at...]
        }
        return result + rest
    }

    /// The URL without its user information, and the `Authorization: Basic` header its user information stood for:
    /// what a player sends to the URL's origin when a stream URL carries `user:password@`.
    public static func splitCredentials(_ url: URL) -> (url: URL, authorization: String?) {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false), let user = components.user
        else { return (url, nil) }
        let password = components.password ?? ""
        components.user = nil
        components.password = nil
        return (components.url ?? url, "Basic " + Data((user + ":" + password).utf8).base64EncodedString())
    }
}
