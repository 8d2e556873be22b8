/// A kind of media a viewer chooses a rendition of, named as Pillarbox and AVFoundation name them.
public enum MediaCharacteristic: String, Sendable, Hashable, Codable, CaseIterable {
    /// Audio: the language or an audio description of the video.
    case audible
    /// Text: subtitles and captions.
    case legible

    /// The engine's kind of rendition for this characteristic.
    public var kind: MediaOption.Kind {
        switch self {
        case .audible: .audio
        case .legible: .subtitles
        }
    }

    /// The characteristic of an engine's kind of rendition.
    /// - Parameter kind: audio or subtitles.
    public init(_ kind: MediaOption.Kind) {
        switch kind {
        case .audio: self = .audible
        case .subtitles: self = .legible
        }
    }
}
