import Foundation
import PlaytraceCore
import PlaytraceHLS
public import PlaytracePlayer

extension HeadlessEngine {
    /// Reads the audio and subtitle renditions (`EXT-X-MEDIA`) of a multivariant playlist and chooses the
    /// defaults: the `DEFAULT=YES` audio rendition (else the first), and subtitles only when one is `DEFAULT=YES`.
    /// Renditions of the same kind and name in several groups (one audio group per bit rate, say) are one option.
    func readMediaOptions(_ renditions: [Rendition], baseURL: URL) {
        for rendition in renditions {
            let kind: MediaOption.Kind
            switch rendition.type {
            case .audio: kind = .audio
            case .subtitles: kind = .subtitles
            case .video, .closedCaptions: continue
            }
            let id = "\(kind.rawValue):\(rendition.language ?? "und"):\(rendition.name)"
            guard !mediaOptions.contains(where: { $0.id == id }) else { continue }
            mediaOptions.append(MediaOption(id: id, kind: kind, name: rendition.name, language: rendition.language,
                                            isDefault: rendition.isDefault, isAutoSelect: rendition.isAutoselect,
                                            isForced: rendition.isForced,
                                            characteristics: rendition.characteristics))
            if let uri = rendition.uri, let url = URL(string: uri, relativeTo: baseURL)?.absoluteURL {
                mediaOptionURLs[id] = url
            }
        }
        let audio = mediaOptions.filter { $0.kind == .audio }
        if let choice = audio.first(where: \.isDefault) ?? audio.first { selectedMediaOptions[.audio] = choice.id }
        if let subtitles = mediaOptions.first(where: { $0.kind == .subtitles && $0.isDefault }) {
            selectedMediaOptions[.subtitles] = subtitles.id
        }
    }

    public func selectMediaOption(_ id: MediaOption.ID?, for kind: MediaOption.Kind) async {
        let options = mediaOptions.filter { $0.kind == kind }
        let chosen: MediaOption?
        if let id {
            guard let option = options.first(where: { $0.id == id }) else {
                logger.warning("no such media option", metadata: ["id": "\(id)", "kind": "\(kind.rawValue)"])
                return
            }
            chosen = option
        } else {
            chosen = kind == .audio ? (options.first(where: \.isDefault) ?? options.first) : nil
        }
        guard selectedMediaOptions[kind] != chosen?.id else { return }
        selectedMediaOptions[kind] = chosen?.id
        emit(.mediaOptionSelected(chosen, kind: kind))
        // A rendition with its own playlist is a stream of its own: a real client loads it to play it. Without a
        // decoder only the playlist is fetched (its failure is a warning: the main stream plays on).
        guard let chosen, let url = mediaOptionURLs[chosen.id] else { return }
        let expected = generation
        do {
            let (playlist, _, _) = try await fetchPlaylist(url, kind: .mediaPlaylist, variant: nil)
            guard generation == expected, case .media = playlist else { return }
        } catch let error as EngineError {
            guard generation == expected else { return }
            var warning = error
            warning.isFatal = false
            lastError = warning
            emit(.error(warning))
        } catch {
            return
        }
    }
}
