import PlaytraceCore
public import Foundation

/// HTTP's `Retry-After` (RFC 9110 §10.2.3): how long a server that answered 429 or 503 asks its client to wait.
public enum RetryAfter {
    /// The wait a `Retry-After` value asks for: a whole number of seconds, or an HTTP date (IMF-fixdate, or the
    /// obsolete RFC 850 and asctime forms) counted from `now`; a date already past asks for none. `nil` for a value
    /// that is neither.
    ///
    /// ```swift
    /// RetryAfter.delay("120", now: Date())                             // 120 s
    /// RetryAfter.delay("Wed, 25 Nov 2026 18:00:30 GMT", now: noon)     // the time until then
    /// ```
    public static func delay(_ value: String, now: Date) -> Duration? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            guard let seconds = Int64(text) else { return .seconds(Int64.max / 2) }  // more digits than fit: "never soon"
            return .seconds(seconds)
        }
        if let date = HTTPDate.parse(text) {
            let interval = date.timeIntervalSince(now)
            return interval > 0 ? .saturating(milliseconds: interval * 1_000) : .zero
        }
        return nil
    }
}
