/// An alternative rendition an engine offers for a kind of media: an audio track or a subtitle track (in HLS,
/// an `EXT-X-MEDIA` rendition).
public struct MediaOption: Sendable, Hashable, Codable, Identifiable {
    /// The kinds of media one can choose a rendition of.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case audio
        case subtitles
    }

    /// Unique among the options of an item.
    public var id: String
    public var kind: Kind
    /// The name to show.
    public var name: String
    /// The language (RFC 5646 tag), when declared.
    public var language: String?
    /// Whether the rendition is the one to choose without a preference.
    public var isDefault: Bool
    /// Whether the rendition may be chosen automatically, without the user asking for it, when it suits the
    /// viewer's environment (its language, say): HLS's `AUTOSELECT=YES`.
    public var isAutoSelect: Bool
    /// Whether the rendition holds forced subtitles only (shown even with subtitles off).
    public var isForced: Bool
    /// Accessibility characteristics, as declared (for instance `public.accessibility.describes-video`).
    public var characteristics: [String]

    /// Creates an option.
    /// - Parameters:
    ///   - id: unique among the options of an item.
    ///   - kind: audio or subtitles.
    ///   - name: the name to show.
    ///   - language: the language (RFC 5646 tag), when declared.
    ///   - isDefault: whether it is the one to choose without a preference (`DEFAULT=YES`).
    ///   - isAutoSelect: whether it may be chosen automatically (`AUTOSELECT=YES`; implied by `isDefault`).
    ///   - isForced: whether it holds forced subtitles only (`FORCED=YES`).
    ///   - characteristics: accessibility characteristics, as declared.
    public init(id: String, kind: Kind, name: String, language: String? = nil, isDefault: Bool = false,
                isAutoSelect: Bool = false, isForced: Bool = false, characteristics: [String] = []) {
        self.id = id
        self.kind = kind
        self.name = name
        self.language = language
        self.isDefault = isDefault
        self.isAutoSelect = isAutoSelect || isDefault
        self.isForced = isForced
        self.characteristics = characteristics
    }
}
