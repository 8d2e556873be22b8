public import Foundation

/// HTTP's dates (RFC 9110 §5.6.7): the IMF-fixdate of `Date`, `Last-Modified` and `Retry-After`
/// (`Sun, 06 Nov 1994 08:49:37 GMT`), and the obsolete RFC 850 and asctime forms a recipient must still read.
///
/// ```swift
/// HTTPDate.parse("Wed, 25 Nov 2026 18:00:30 GMT")   // 2026-11-25T18:00:30Z
/// ```
public enum HTTPDate {
    /// The date, or `nil` for text in none of the three forms.
    public static func parse(_ text: String) -> Date? {
        let text = text.trimmingCharacters(in: .whitespaces)
        // Formatters made per call: an HTTP date is rare, and a shared DateFormatter is not safe across threads.
        for pattern in ["EEE, dd MMM yyyy HH:mm:ss 'GMT'", "EEEE, dd-MMM-yy HH:mm:ss 'GMT'", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = pattern
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
