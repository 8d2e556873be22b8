/// What the viewer prefers for a characteristic, kept from item to item: the rule the player applies to every
/// item until the viewer chooses a rendition from a menu (``Player/setMediaSelectionPreference(_:for:)``).
public struct MediaSelectionPreference: Sendable, Hashable {
    enum Rule: Sendable, Hashable {
        case automatic
        case off
        case on(languages: [String])
    }

    let rule: Rule

    /// The player chooses (the default).
    public static let automatic = MediaSelectionPreference(rule: .automatic)

    /// No subtitles but forced ones (for audio, the same as ``automatic``: audio cannot be off).
    public static let off = MediaSelectionPreference(rule: .off)

    /// The first of these languages an item offers (RFC 5646 tags, `fr` matching `fr-CH`); the automatic choice
    /// when an item offers none of them.
    /// - Parameter languages: the languages, most wanted first.
    public static func on(languages: String...) -> MediaSelectionPreference {
        MediaSelectionPreference(rule: .on(languages: languages))
    }

    /// The same, from an array.
    /// - Parameter languages: the languages, most wanted first.
    public static func on(languages: [String]) -> MediaSelectionPreference {
        MediaSelectionPreference(rule: .on(languages: languages))
    }
}
