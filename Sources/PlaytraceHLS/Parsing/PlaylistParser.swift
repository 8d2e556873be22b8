/// Parses HLS playlists (RFC 8216bis): multivariant and media playlists, low-latency tags, date ranges and
/// interstitials, legacy cue tags, and variable substitution.
///
/// The parser never crashes and never hangs: malformed input gives a ``PlaylistParseError`` with its line
/// number, and what the specification tells clients to ignore (unknown tags, comments, blank lines) is kept or
/// skipped. Problems a client can live with are reported as ``PlaylistWarning``s.
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

        public init(importedVariables: [String: String]? = nil, queryParameters: [String: String]? = nil) {
            self.importedVariables = importedVariables
            self.queryParameters = queryParameters
        }
    }

    /// A parsed playlist with what looked wrong in it.
    public struct Outcome: Sendable {
        /// The playlist.
        public var playlist: Playlist
        /// What looked wrong, in line order.
        public var warnings: [PlaylistWarning]
        /// The variables the playlist defined (for importing into its media playlists).
        public var variables: [String: String]
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
        let result = text.withUTF8 { run($0) }
        return try result.get()
    }

    /// Parses a playlist from UTF-8 bytes, keeping the warnings.
    public func parseWithWarnings(bytes: some Collection<UInt8>) throws(PlaylistParseError) -> Outcome {
        let result = bytes.withContiguousStorageIfAvailable { run($0) } ?? Array(bytes).withUnsafeBufferPointer { run($0) }
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

    private func run(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<Outcome, PlaylistParseError> {
        var state = ParserState(options: options)
        do {
            try state.parse(bytes)
            return .success(try state.finish())
        } catch {
            return .failure(error)
        }
    }
}
