import PlaytraceCore

/// A fault the lab applies to matching requests.
public struct LabFault: Sendable, Hashable, Codable {
    /// What the fault does.
    public enum Kind: Sendable, Hashable, Codable {
        /// Wait this long (lab time) before answering.
        case delay(milliseconds: Int)
        /// Answer with this HTTP status and no body (or the body of a ``body(_:)`` fault that applies too).
        case status(Int)
        /// Answer with this HTTP status (429, 503) and a `Retry-After` header of this value (seconds, or an HTTP
        /// date).
        case retryAfter(status: Int, value: String)
        /// Send the head and half the body, then close the connection.
        case dropConnection
        /// Send the body at this many bytes per second (lab time).
        case throttle(bytesPerSecond: Int)
        /// Answer 200 with this body instead of the resource's (malformed metadata, an oversized answer).
        case body(String)

        /// The kind without its value: one fault of each applies to a request.
        var category: Int {
            switch self {
            case .delay: 0
            case .status, .retryAfter: 1
            case .dropConnection: 2
            case .throttle: 3
            case .body: 4
            }
        }
    }

    /// Requests whose path contains this text are affected (empty: every request).
    public var pathContains: String
    /// What it does.
    public var kind: Kind
    /// How many requests it still affects; `nil` for every one until removed.
    public var remaining: Int?

    /// A fault for requests whose path contains `pathContains`, for `remaining` requests (`nil`: all).
    public init(pathContains: String = "", kind: Kind, remaining: Int? = nil) {
        self.pathContains = pathContains
        self.kind = kind
        self.remaining = remaining
    }
}

/// The lab's active faults. Thread-safe; the first matching fault of each kind applies.
public final class FaultInjector: Sendable {
    private let faults = Locked<[LabFault]>([])

    /// An injector with no fault.
    public init() {}

    /// Adds a fault.
    public func add(_ fault: LabFault) { faults.withLock { $0.append(fault) } }

    /// Removes every fault.
    public func clear() { faults.withLock { $0.removeAll() } }

    /// The active faults.
    public var active: [LabFault] { faults.withLock { $0 } }

    /// The faults that apply to a request for `path` — the first matching one of each kind, so that faults of one
    /// kind added in a row apply to successive requests — consuming one use of each counted fault applied.
    func take(for path: String) -> [LabFault.Kind] {
        faults.withLock { faults in
            var kinds: [LabFault.Kind] = []
            var index = 0
            while index < faults.count {
                let fault = faults[index]
                if fault.pathContains.isEmpty || path.contains(fault.pathContains),
                   !kinds.contains(where: { $0.category == fault.kind.category }) {
                    kinds.append(fault.kind)
                    if let remaining = fault.remaining {
                        if remaining <= 1 {
                            faults.remove(at: index)
                            continue
                        }
                        faults[index].remaining = remaining - 1
                    }
                }
                index += 1
            }
            return kinds
        }
    }
}
