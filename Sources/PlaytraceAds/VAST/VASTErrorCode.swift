/// The VAST error codes a client reports in `[ERRORCODE]` (IAB VAST 4.x, error reporting), those Playtrace meets.
public enum VASTErrorCode: Int, Sendable, Hashable, CaseIterable {
    /// The XML could not be parsed.
    case xmlParsing = 100
    /// The response is not a VAST document (schema validation).
    case schemaValidation = 101
    /// The VAST version is not supported.
    case versionNotSupported = 102
    /// A general wrapper error.
    case wrapper = 300
    /// A wrapper's `VASTAdTagURI` timed out or could not be had.
    case wrapperTimeout = 301
    /// More wrappers than the player accepts.
    case wrapperLimit = 302
    /// No ad after the wrappers (or an empty response).
    case noAd = 303
    /// The ad did not display in time.
    case inlineTimeout = 304
    /// A general linear error.
    case linear = 400
    /// No media file the player supports.
    case noSupportedMediaFile = 403
    /// A media file could not be played.
    case mediaFileDisplay = 405
    /// A verification script was not executed.
    case verificationNotExecuted = 410
    /// Undefined error.
    case undefined = 900
}
