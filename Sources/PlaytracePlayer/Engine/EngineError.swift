/// An error an engine met, typed by where it came from.
public struct EngineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where an error came from.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The request got no response (DNS, connection, timeout, closed connection).
        case network
        /// The server answered with an error status.
        case httpStatus
        /// A playlist could not be parsed or is unusable.
        case playlist
        /// The media or the source is not supported.
        case unsupported
        /// Decoding or rendering failed (real decoders only).
        case decoding
        /// The item's asset could not be obtained: its loader failed or the content is unavailable.
        case asset
    }

    /// Where the error came from.
    public var kind: Kind
    /// A human-readable description.
    public var message: String
    /// Whether playback stopped because of it.
    public var isFatal: Bool
    /// The HTTP status, for ``Kind/httpStatus``.
    public var httpStatus: Int?
    /// The URL involved, when there is one.
    public var url: String?

    public init(kind: Kind, message: String, isFatal: Bool, httpStatus: Int? = nil, url: String? = nil) {
        self.kind = kind
        self.message = message
        self.isFatal = isFatal
        self.httpStatus = httpStatus
        self.url = url
    }

    public var description: String {
        (isFatal ? "fatal " : "") + "\(kind) error: \(message)" + (url.map { " (\($0))" } ?? "")
    }
}
