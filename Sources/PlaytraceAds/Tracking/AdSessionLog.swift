public import PlaytraceCore

/// One message of the session's log (bounded: see ``AdBeaconingSession/logLimit``).
public struct AdLogMessage: Sendable, Hashable, Identifiable {
    public let id: Int
    /// When it was logged.
    public var timeStamp: StreamDate
    public var message: String
    public var isError: Bool
}

/// The session's log: its latest messages (at most ``limit``) and the last error said.
struct AdSessionLog: Sendable {
    private(set) var messages: [AdLogMessage] = []
    private(set) var latestError: String?
    /// The most messages kept.
    let limit = 500
    private var nextID = 0

    mutating func append(_ message: String, isError: Bool, at date: StreamDate) {
        messages.append(AdLogMessage(id: nextID, timeStamp: date, message: message, isError: isError))
        nextID += 1
        if messages.count > limit { messages.removeFirst(messages.count - limit) }
        if isError { latestError = message }
    }
}
