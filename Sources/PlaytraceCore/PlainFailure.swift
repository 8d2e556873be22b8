import Foundation

/// A failure as the one line a person reads: what failed (a setting, a file, a URL) and why, in plain words.
///
/// ```swift
/// let failure = PlainFailure("--outbox /tmp/x.sqlite", "permission denied")
/// print(failure)  // --outbox /tmp/x.sqlite: permission denied
/// ```
public struct PlainFailure: Error, CustomStringConvertible, Sendable {
    /// What failed: `--jsonl /tmp/x.jsonl`, `http://host/live.m3u8`.
    public let subject: String
    /// Why, in plain words.
    public let reason: String

    public init(_ subject: String, _ reason: String) {
        self.subject = subject
        self.reason = reason
    }

    /// The failure of `subject`, its reason the error's in plain words (``PlainText/describe(_:)``).
    public init(_ subject: String, error: any Error) {
        self.init(subject, PlainText.describe(error))
    }

    /// `subject: reason`, safe for a terminal (``PlainText/safe(_:)``).
    public var description: String { PlainText.safe("\(subject): \(reason)") }
}
