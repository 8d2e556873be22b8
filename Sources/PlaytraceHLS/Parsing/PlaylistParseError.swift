/// Why a playlist could not be parsed, with the line where it happened.
public struct PlaylistParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Hashable {
        /// The first line is not `#EXTM3U`.
        case missingHeader
        /// The input is not UTF-8 text.
        case invalidEncoding
        /// A tag's value could not be read.
        case invalidValue(tag: String, value: String)
        /// A required attribute is absent.
        case missingAttribute(tag: String, attribute: String)
        /// An attribute's value could not be read.
        case invalidAttribute(tag: String, attribute: String, value: String)
        /// An attribute list is malformed (stray characters, unterminated quote).
        case malformedAttributeList(tag: String)
        /// `{$name}` refers to a variable that no `EXT-X-DEFINE` defines.
        case undefinedVariable(String)
        /// Two `EXT-X-DEFINE` tags define the same name.
        case duplicateVariable(String)
        /// Media-playlist tags and multivariant-playlist tags in the same playlist.
        case mixedPlaylistKinds
        /// A media playlist without `EXT-X-TARGETDURATION`.
        case missingTargetDuration
        /// A URI line that is not a URI once variables are substituted (empty, or starting with `#`).
        case invalidURI(String)
        /// A media segment URI with no `EXTINF` before it.
        case missingSegmentDuration
        /// `EXT-X-STREAM-INF` not followed by a URI line.
        case missingVariantURI
        /// A multivariant playlist without one usable variant stream.
        case missingVariants
        /// A tag that may appear once appears again.
        case duplicateTag(String)
        /// `EXT-X-BYTERANGE` without an offset where no previous range of the same resource exists.
        case unresolvableByteRange
        /// The playlist went past one of the parser's ``PlaylistLimits``.
        case limitExceeded(PlaylistLimits.Limit)

        /// Whether the error leaves nothing usable: no header, no target duration in a media playlist, no variant
        /// in a multivariant playlist, tags of
        /// both playlist kinds, or a limit exceeded. Any other error spoils one tag or line, which a lenient
        /// parse reports as a problem and skips (see ``PlaylistParser/Options/isStrict``).
        public var isFatal: Bool {
            switch self {
            case .missingHeader, .missingTargetDuration, .missingVariants, .mixedPlaylistKinds, .limitExceeded: true
            default: false
            }
        }
    }

    /// The line number (1-based) where the problem was found.
    public var line: Int
    /// What went wrong.
    public var reason: Reason

    public init(line: Int, reason: Reason) {
        self.line = line
        self.reason = reason
    }

    public var description: String { "line \(line): \(message)" }

    /// What went wrong, in words, without the line.
    public var message: String {
        let text: String
        switch reason {
        case .missingHeader: text = "the playlist does not start with #EXTM3U"
        case .invalidEncoding: text = "the playlist is not UTF-8 text"
        case .invalidValue(let tag, let value): text = "\(tag) has an invalid value \"\(value.prefix(80))\""
        case .missingAttribute(let tag, let attribute): text = "\(tag) lacks the required attribute \(attribute)"
        case .invalidAttribute(let tag, let attribute, let value):
            text = "\(tag) has an invalid \(attribute)=\"\(value.prefix(80))\""
        case .malformedAttributeList(let tag): text = "\(tag) has a malformed attribute list"
        case .undefinedVariable(let name): text = "the variable {$\(name)} is not defined"
        case .duplicateVariable(let name): text = "the variable \(name) is defined twice"
        case .mixedPlaylistKinds: text = "the playlist mixes media-playlist and multivariant-playlist tags"
        case .missingTargetDuration: text = "the media playlist has no #EXT-X-TARGETDURATION"
        case .invalidURI(let uri): text = "\"\(uri.prefix(80))\" is not a URI"
        case .missingSegmentDuration: text = "a segment URI has no #EXTINF before it"
        case .missingVariantURI: text = "#EXT-X-STREAM-INF is not followed by a URI"
        case .missingVariants: text = "the multivariant playlist has no usable variant stream"
        case .duplicateTag(let tag): text = "\(tag) appears more than once"
        case .unresolvableByteRange: text = "#EXT-X-BYTERANGE has no offset and no previous range to follow"
        case .limitExceeded(let limit): text = limit.description
        }
        return text
    }
}

/// A problem a client can live with: something the specification forbids or that looks wrong, or a tag or line
/// that could not be read and was skipped (or repaired) so that the rest of the playlist stays usable.
public struct PlaylistWarning: Sendable, Hashable, CustomStringConvertible {
    /// The line number (1-based).
    public var line: Int
    /// What looks wrong.
    public var message: String
    /// The error that made the parser skip or repair a tag or line; `nil` for advice about a playlist that was
    /// read whole.
    public var reason: PlaylistParseError.Reason?

    public init(line: Int, message: String, reason: PlaylistParseError.Reason? = nil) {
        self.line = line
        self.message = message
        self.reason = reason
    }

    /// A problem made of an error that a lenient parse skipped.
    public init(skipping error: PlaylistParseError) {
        self.init(line: error.line, message: error.message, reason: error.reason)
    }

    public var description: String { "line \(line): \(message)" }
}
