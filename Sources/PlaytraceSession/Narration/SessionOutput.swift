/// Where a session says what happens as it plays: the tracker's life cycle, ad breaks, the summary's lines, a
/// status line or a live panel.
///
/// The command line's output draws a live panel on a terminal and prints plain lines elsewhere; an app can keep
/// the lines, show them, or drop them (``DiscardedOutput``). Every line may carry text from the network: an output
/// that shows it on a terminal passes it through `PlainText.safe(_:)` first.
public protocol SessionOutput: Sendable {
    /// Whether a live panel is shown (``panel(_:)``), rather than a status line every few seconds.
    var showsPanel: Bool { get }
    /// A line of narration.
    func message(_ line: String)
    /// The status of the moment, when no panel is shown (every 5 s of session time).
    func status(_ line: String)
    /// The live panel's lines, redrawn in place (every 250 ms of session time, when ``showsPanel``).
    func panel(_ lines: [String])
    /// The panel or status is no longer current: what follows are messages.
    func endStatus()
}

/// An output that keeps nothing: the session's record (its summary) is all an app wants of it.
public struct DiscardedOutput: SessionOutput {
    public init() {}
    public var showsPanel: Bool { false }
    public func message(_ line: String) {}
    public func status(_ line: String) {}
    public func panel(_ lines: [String]) {}
    public func endStatus() {}
}
