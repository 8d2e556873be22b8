import PlaytraceCore

/// Parses HLS playlists (RFC 8216bis): multivariant and media playlists, low-latency tags, date ranges and
/// interstitials, legacy cue tags, and variable substitution.
///
/// The parser never crashes and never hangs, and costs time linear in its input and memory bounded by
/// ``PlaylistLimits``. It is lenient, as players are: a tag or line that cannot be read is reported as a
/// ``PlaylistWarning`` with its line and skipped (a repeated once-only tag keeps its first value, a segment
/// whose URI cannot be resolved is kept as a gap so that the timeline stays right), and only what leaves nothing
/// usable throws a ``PlaylistParseError`` (no `#EXTM3U`, no target duration in a media playlist, tags of both
/// kinds, a limit exceeded). ``Options/isStrict`` throws the first problem instead. What the specification tells
/// clients to ignore (unknown tags, comments, blank lines) is kept or skipped without a word.
///
/// ```swift
/// let parser = PlaylistParser()
/// switch try parser.parse(text) {
/// case .multivariant(let playlist): print(playlist.variants.map(\.bandwidth))
/// case .media(let playlist): print(playlist.duration)
/// }
/// ```
public struct PlaylistParser: Sendable {
    /// Context for variable substitution.
    public struct Options: Sendable {
        /// Variables defined by the multivariant playlist, for `EXT-X-DEFINE:IMPORT=` in media playlists.
        /// `nil` when unknown: an import then stays unresolved and is reported as a warning.
        public var importedVariables: [String: String]?
        /// The query parameters of the playlist's URL, for `EXT-X-DEFINE:QUERYPARAM=`. `nil` when unknown.
        public var queryParameters: [String: String]?
        /// Whether a tag or line that cannot be read fails the whole parse (the first one is thrown) instead of
        /// being reported and skipped. `false` by default, as players are lenient.
        public var isStrict: Bool
        /// Bounds on what one parse may cost.
        public var limits: PlaylistLimits
        /// Whether the parse reads to the end whatever is wrong, as a validator does: the problems that leave
        /// nothing usable (tags of both kinds, no target duration, no variant) are listed as warnings with their
        /// lines too, the first of them is ``Outcome/unusable``, and the playlist holds what could be read (a tag of
        /// the kind the playlist did not start with is skipped; a missing target duration is taken as the longest
        /// segment's, rounded up). Not reading the document (no `#EXTM3U`, a limit exceeded) still throws.
        /// `false` by default: a player has no use for an unusable playlist.
        public var diagnoses: Bool
        /// With a number, a media playlist that is not a VOD one (`EXT-X-PLAYLIST-TYPE:VOD`) keeps only its last
        /// this many segments, as if the server had listed only those: the media and discontinuity sequences move
        /// past the ones left out, and what they carried forward (the `EXT-X-MAP`, `EXT-X-KEY` and `EXT-X-BITRATE`
        /// in effect, the program date-time, byte-range offsets) is written on the first segment kept. A player
        /// needs the live window it can seek in, not a server's weeks of history: the parse then holds at most
        /// twice this many segments at once, and the playlist this many, whatever the input's length. A warning
        /// says how many were left out. `nil` (the default) keeps every segment.
        public var keepingLastSegments: Int?

        public init(
            importedVariables: [String: String]? = nil, queryParameters: [String: String]? = nil,
            isStrict: Bool = false, limits: PlaylistLimits = PlaylistLimits(), diagnoses: Bool = false,
            keepingLastSegments: Int? = nil
        ) {
            self.importedVariables = importedVariables
            self.queryParameters = queryParameters
            self.isStrict = isStrict
            self.limits = limits
            self.diagnoses = diagnoses
            self.keepingLastSegments = keepingLastSegments.map { max($0, 1) }
        }
    }

    /// A parsed playlist with what looked wrong in it.
    public struct Outcome: Sendable {
        /// The playlist.
        public var playlist: Playlist
        /// What looked wrong, in line order: advice, and the tags and lines that were skipped or repaired
        /// (those have a ``PlaylistWarning/reason``).
        public var warnings: [PlaylistWarning]
        /// The variables the playlist defined (for importing into its media playlists).
        public var variables: [String: String]
        /// With ``Options/diagnoses``, the first problem that leaves the playlist unusable (it is among the
        /// warnings too); `nil` otherwise.
        public var unusable: PlaylistParseError? = nil
    }

    /// The context for variable substitution.
    public var options: Options

    public init(options: Options = Options()) { self.options = options }

    /// Parses a playlist from text.
    public func parse(_ text: String) throws(PlaylistParseError) -> Playlist {
        try parseWithWarnings(text).playlist
    }

    /// Parses a playlist from UTF-8 bytes.
    public func parse(bytes: some Collection<UInt8>) throws(PlaylistParseError) -> Playlist {
        try parseWithWarnings(bytes: bytes).playlist
    }

    /// Parses a playlist from text, keeping the warnings.
    public func parseWithWarnings(_ text: String) throws(PlaylistParseError) -> Outcome {
        var text = text
        let result = text.withUTF8Span { run($0) }
        return try result.get()
    }

    /// Parses a playlist from UTF-8 bytes, keeping the warnings.
    public func parseWithWarnings(bytes: some Collection<UInt8>) throws(PlaylistParseError) -> Outcome {
        // (An array is lent as it is; other collections, `Data` among them, are copied into one first.)
        let result = Array(bytes).withSpan { run($0) }
        return try result.get()
    }

    /// Parses a media playlist; a multivariant playlist is an error (``PlaylistParseError/Reason/mixedPlaylistKinds``).
    public func parseMediaPlaylist(_ text: String) throws(PlaylistParseError) -> MediaPlaylist {
        guard case .media(let playlist) = try parse(text) else {
            throw PlaylistParseError(line: 1, reason: .mixedPlaylistKinds)
        }
        return playlist
    }

    /// Parses a multivariant playlist; a media playlist is an error.
    public func parseMultivariantPlaylist(_ text: String) throws(PlaylistParseError) -> MultivariantPlaylist {
        guard case .multivariant(let playlist) = try parse(text) else {
            throw PlaylistParseError(line: 1, reason: .mixedPlaylistKinds)
        }
        return playlist
    }

    private func run(_ bytes: Span<UInt8>) -> Result<Outcome, PlaylistParseError> {
        guard bytes.count <= options.limits.maximumBytes else {
            return .failure(PlaylistParseError(line: 1, reason: .limitExceeded(.playlistBytes(options.limits.maximumBytes))))
        }
        var state = ParserState(options: options, inputBytes: bytes.count)
        do {
            try state.parse(bytes)
            return .success(try state.finish())
        } catch {
            return .failure(error)
        }
    }
}
