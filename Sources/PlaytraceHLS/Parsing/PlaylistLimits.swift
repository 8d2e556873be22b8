import PlaytraceCore

/// Bounds on what parsing one playlist may cost, for playlists from servers that cannot be trusted.
///
/// A playlist of n bytes costs the parser time linear in n; these limits also bound the memory it holds as a
/// fixed multiple of n, and turn what no real playlist needs into a typed error
/// (``PlaylistParseError/Reason/limitExceeded(_:)``) that names the line, instead of a process that grows
/// until the kernel kills it. The defaults are far above what real playlists use (the largest live and VOD
/// playlists seen in the field hold tens of thousands of segments in a few megabytes).
///
/// ```swift
/// var options = PlaylistParser.Options()
/// options.limits.maximumBytes = 1 << 20   // a client that only plays short live windows
/// let playlist = try PlaylistParser(options: options).parse(text)
/// ```
public struct PlaylistLimits: Sendable, Hashable {
    /// The most bytes a playlist may hold (64 MiB by default).
    public var maximumBytes: Int
    /// The most bytes one line may hold, before variable substitution (1 MiB by default).
    public var maximumLineLength: Int
    /// The most media segments a media playlist may hold (1,000,000 by default).
    public var maximumSegments: Int
    /// The most `EXT-X-DEFINE` tags a playlist may hold (10,000 by default).
    public var maximumVariables: Int
    /// The most bytes one variable's value may hold once substituted (64 KiB by default).
    public var maximumVariableValueLength: Int
    /// The most bytes that variable substitution may insert over the whole playlist, as a multiple of the
    /// playlist's own size (32 by default). ``minimumSubstitutionBudget`` is allowed whatever the size.
    ///
    /// Substitution is what turns a few kilobytes into gigabytes: chained definitions (`a1 = {$a0}{$a0}`,
    /// `a2 = {$a1}{$a1}`, …) double at each step. This budget keeps the expanded text linear in the input.
    public var substitutionGrowthFactor: Int
    /// The bytes that variable substitution may always insert, however small the playlist (1 MiB by default).
    public var minimumSubstitutionBudget: Int

    /// Limits with the default values.
    public init(
        maximumBytes: Int = 64 << 20, maximumLineLength: Int = 1 << 20, maximumSegments: Int = 1_000_000,
        maximumVariables: Int = 10_000, maximumVariableValueLength: Int = 64 << 10,
        substitutionGrowthFactor: Int = 32, minimumSubstitutionBudget: Int = 1 << 20
    ) {
        self.maximumBytes = maximumBytes
        self.maximumLineLength = maximumLineLength
        self.maximumSegments = maximumSegments
        self.maximumVariables = maximumVariables
        self.maximumVariableValueLength = maximumVariableValueLength
        self.substitutionGrowthFactor = substitutionGrowthFactor
        self.minimumSubstitutionBudget = minimumSubstitutionBudget
    }

    /// The bytes that variable substitution may insert into a playlist of `inputBytes` bytes.
    public func substitutionBudget(forInputBytes inputBytes: Int) -> Int {
        let (scaled, overflow) = inputBytes.multipliedReportingOverflow(by: max(substitutionGrowthFactor, 0))
        return max(overflow ? .max : scaled, minimumSubstitutionBudget)
    }

    /// One limit that an input went past.
    public enum Limit: Sendable, Hashable {
        /// The playlist is larger than ``PlaylistLimits/maximumBytes``.
        case playlistBytes(Int)
        /// A line is longer than ``PlaylistLimits/maximumLineLength``.
        case lineLength(Int)
        /// More segments than ``PlaylistLimits/maximumSegments``.
        case segments(Int)
        /// More definitions than ``PlaylistLimits/maximumVariables``.
        case variables(Int)
        /// A substituted value longer than ``PlaylistLimits/maximumVariableValueLength``.
        case variableValueLength(Int)
        /// Substitution inserted more bytes than ``PlaylistLimits/substitutionBudget(forInputBytes:)`` allows.
        case substitutedBytes(Int)

        /// What went past the limit, in words.
        public var description: String {
            switch self {
            case .playlistBytes(let limit): "the playlist is larger than \(ByteCount(limit))"
            case .lineLength(let limit): "the line is longer than \(ByteCount(limit))"
            case .segments(let limit): "the playlist holds more than \(limit) segments"
            case .variables(let limit): "the playlist defines more than \(limit) variables"
            case .variableValueLength(let limit): "a variable's value expands past \(ByteCount(limit))"
            case .substitutedBytes(let limit): "variable substitution expands the playlist by more than \(ByteCount(limit))"
            }
        }
    }
}
