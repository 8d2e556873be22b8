/// Where a tracking event's beacon stands.
///
/// `idle` until the scheduler fires it; `connecting` while its requests are under way (retries included); `done`
/// once every signaling URL was delivered (or had nothing to request, like `about:blank`); `failed` only when a URL
/// exhausted its retry budget or was refused (a scheme other than http or https).
public enum ReportingState: String, Sendable, Hashable, Codable, CaseIterable {
    case idle
    case connecting
    case done
    case failed

    /// Whether the event was fired (whatever became of its requests).
    public var hasFired: Bool { self != .idle }
}
