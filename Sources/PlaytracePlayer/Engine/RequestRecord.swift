public import PlaytraceCore

/// One HTTP request an engine made, for QoS analysis.
public struct RequestRecord: Sendable, Hashable, Codable {
    /// What the request fetched.
    public enum Kind: String, Sendable, Hashable, Codable {
        case multivariantPlaylist
        case mediaPlaylist
        case segment
        case initializationSection
        case key
        /// A content-steering manifest.
        case steeringManifest
        /// An MPEG-DASH MPD fetched again (a live one's refresh; the first fetch is the item's main playlist).
        case manifest
        /// A live presentation's clock (an MPD's `UTCTiming`).
        case clock
        /// An MPEG-DASH segment index (`sidx`, the bytes `SegmentBase@indexRange` names).
        case segmentIndex
        case other
    }

    /// Identifies the request (each retry is a request of its own).
    public var id: RequestID
    /// What it fetched.
    public var kind: Kind
    /// The URL requested.
    public var url: String
    /// The HTTP status, when a response came.
    public var status: Int?
    /// Body bytes received.
    public var bytes: Int
    /// From sending to the response head, when a response came.
    public var timeToFirstByte: Duration?
    /// From sending to the end (the last byte or the failure).
    public var duration: Duration
    /// 1 for the first try, 2 for the first retry…
    public var attempt: Int
    /// The failure, when the request failed.
    public var error: String?
    /// The variant the request was made for, when any.
    public var variantIndex: Int?

    public init(id: RequestID = RequestID(), kind: Kind, url: String, status: Int?, bytes: Int,
                timeToFirstByte: Duration?, duration: Duration, attempt: Int, error: String? = nil,
                variantIndex: Int? = nil) {
        self.id = id
        self.kind = kind
        self.url = url
        self.status = status
        self.bytes = bytes
        self.timeToFirstByte = timeToFirstByte
        self.duration = duration
        self.attempt = attempt
        self.error = error
        self.variantIndex = variantIndex
    }

    /// Whether the request succeeded (2xx with a body).
    public var succeeded: Bool { error == nil && (status.map { (200..<300).contains($0) } ?? false) }

    /// Throughput in bits per second, when meaningful.
    public var throughput: Double? {
        let seconds = duration.seconds
        guard succeeded, seconds > 0 else { return nil }
        return Double(bytes * 8) / seconds
    }
}
