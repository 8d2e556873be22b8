/// An entry of a media selection menu: let the player choose, none, or a rendition.
public enum MediaSelectionOption: Sendable, Hashable {
    /// The player chooses: for subtitles, the stream's default subtitles, else the forced subtitles of the audio's
    /// language (see ``Player/select(mediaOption:for:)``).
    case automatic
    /// No subtitles, except forced subtitles in the audio's language (which translate what the audio does not).
    case off
    /// This rendition.
    case on(MediaOption)

    /// The name to show in a menu.
    public var displayName: String {
        switch self {
        case .automatic: "Auto (Recommended)"
        case .off: "Off"
        case .on(let option): option.name
        }
    }

    /// The rendition, for ``on(_:)``.
    public var option: MediaOption? {
        if case .on(let option) = self { option } else { nil }
    }
}
