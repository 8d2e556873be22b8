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
    /// Whether the rendition holds forced subtitles only (shown even with subtitles off).
    public var isForced: Bool
    /// Accessibility characteristics, as declared (for instance `public.accessibility.describes-video`).
    public var characteristics: [String]

    public init(id: String, kind: Kind, name: String, language: String? = nil, isDefault: Bool = false,
                isForced: Bool = false, characteristics: [String] = []) {
        self.id = id
        self.kind = kind
        self.name = name
        self.language = language
        self.isDefault = isDefault
        self.isForced = isForced
        self.characteristics = characteristics
    }
}
