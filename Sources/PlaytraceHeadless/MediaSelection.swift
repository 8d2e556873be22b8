import Foundation
import PlaytraceHLS
import PlaytracePlayer

/// The audio and subtitle options of a stream (its `EXT-X-MEDIA` renditions), the playlist of each that has one,
/// and the option chosen of each kind.
struct MediaSelection: Sendable {
    private(set) var options: [MediaOption] = []
    /// The playlist of each option that has one, by option.
    private(set) var urls: [MediaOption.ID: URL] = [:]
    /// The option chosen of each kind.
    private(set) var selected: [MediaOption.Kind: MediaOption.ID] = [:]

    /// Reads a multivariant playlist's renditions and chooses the defaults: the `DEFAULT=YES` audio rendition (else
    /// the first), and subtitles only when one is `DEFAULT=YES`. Renditions of the same kind and name in several
    /// groups (one audio group per bit rate, say) are one option.
    init(_ renditions: [Rendition], baseURL: URL) {
        for rendition in renditions {
            let kind: MediaOption.Kind
            switch rendition.type {
            case .audio: kind = .audio
            case .subtitles: kind = .subtitles
            case .video, .closedCaptions: continue
            }
            let id = "\(kind.rawValue):\(rendition.language ?? "und"):\(rendition.name)"
            guard !options.contains(where: { $0.id == id }) else { continue }
            options.append(MediaOption(id: id, kind: kind, name: rendition.name, language: rendition.language,
                                       isDefault: rendition.isDefault, isAutoSelect: rendition.isAutoselect,
                                       isForced: rendition.isForced, characteristics: rendition.characteristics))
            if let uri = rendition.uri, let url = URL(string: uri, relativeTo: baseURL)?.absoluteURL { urls[id] = url }
        }
        let audio = options.filter { $0.kind == .audio }
        if let choice = audio.first(where: \.isDefault) ?? audio.first { selected[.audio] = choice.id }
        if let subtitles = options.first(where: { $0.kind == .subtitles && $0.isDefault }) { selected[.subtitles] = subtitles.id }
    }

    init() {}

    /// What choosing an option came to.
    enum Choice: Equatable {
        /// No option of that kind has this ID: nothing changed.
        case unknown
        /// It was chosen already.
        case unchanged
        /// It is chosen now (`nil`: none of that kind; for audio, `nil` goes back to the default).
        case chosen(MediaOption?)
    }

    /// Chooses an option of a kind (`nil`: the default audio, or no subtitles).
    mutating func choose(_ id: MediaOption.ID?, for kind: MediaOption.Kind) -> Choice {
        let candidates = options.filter { $0.kind == kind }
        let chosen: MediaOption?
        if let id {
            guard let option = candidates.first(where: { $0.id == id }) else { return .unknown }
            chosen = option
        } else {
            chosen = kind == .audio ? (candidates.first(where: \.isDefault) ?? candidates.first) : nil
        }
        guard selected[kind] != chosen?.id else { return .unchanged }
        selected[kind] = chosen?.id
        return .chosen(chosen)
    }
}
