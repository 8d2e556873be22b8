public import Foundation
import PlaytraceCore

/// Credentials are configuration, not data: the ``Outbox`` stores a message's destination, URL and plain headers,
/// never a token, a key or a URL's `user:password`. Couriers attach the credentials of their destination when they
/// deliver (``HTTPCourier``'s `credentials`), from the configuration of the run that delivers: `play`'s options and
/// environment, or `outbox --deliver`'s.
///
/// Every message is stored through ``stored(_:)``: a header whose name says it carries a secret is dropped, a URL's
/// user information is removed, and the message is marked as needing its destination's credentials
/// (``metadataKey`` = ``required``), so that a courier without them says so instead of sending it bare.
///
/// ```swift
/// OutboxCredentials.stored(["url": "https://u:p@influx.example.com/write", "header.Authorization": "Token t"])
/// // ["url": "https://influx.example.com/write", "credentials": "required"]
/// ```
public enum OutboxCredentials {
    /// The metadata key that marks a message whose destination needs credentials.
    public static let metadataKey = "credentials"
    /// Its value.
    public static let required = "required"

    /// Whether a header of this name carries a secret: `Authorization`, `Proxy-Authorization`, `Cookie`, and any
    /// name that speaks of a key, a token, a secret, a password or a session (`Api-Key`, `X-Insert-Key`,
    /// `X-Auth-Token`…), `Idempotency-Key` aside.
    public static func isSecretHeader(_ name: String) -> Bool {
        let lowercased = name.lowercased()
        if lowercased == "idempotency-key" { return false }
        if ["authorization", "proxy-authorization", "cookie"].contains(lowercased) { return true }
        return ["key", "token", "secret", "password", "session", "auth"].contains { lowercased.contains($0) }
    }

    /// The metadata as the outbox stores it: secret headers dropped, the URL without its user information, and
    /// marked ``required`` when anything was taken out.
    public static func stored(_ metadata: [String: String]) -> [String: String] {
        var stored = metadata
        var tookOut = false
        for key in metadata.keys where key.hasPrefix("header.") && isSecretHeader(String(key.dropFirst("header.".count))) {
            stored[key] = nil
            tookOut = true
        }
        if let text = metadata["url"], let bare = withoutUserInformation(text) {
            stored["url"] = bare
            tookOut = true
        }
        if tookOut { stored[metadataKey] = required }
        return stored
    }

    /// The URL without its `user:password@`, or `nil` when it has none.
    public static func withoutUserInformation(_ text: String) -> String? {
        guard let url = URL(string: text) else { return nil }
        let (bare, authorization) = URLRedaction.splitCredentials(url)
        return authorization == nil ? nil : bare.absoluteString
    }

    /// The `Authorization: Basic …` header for a URL's `user:password`, if it has any: how its credentials are used
    /// for its own origin.
    public static func basicAuthorization(from url: URL) -> (name: String, value: String)? {
        URLRedaction.splitCredentials(url).authorization.map { ("Authorization", $0) }
    }
}
