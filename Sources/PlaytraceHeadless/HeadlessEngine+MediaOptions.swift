import Foundation
import PlaytraceCore
public import PlaytracePlayer

extension HeadlessEngine {
    public func selectMediaOption(_ id: MediaOption.ID?, for kind: MediaOption.Kind) async {
        let chosen: MediaOption?
        switch mediaSelection.choose(id, for: kind) {
        case .unknown:
            logger.warning("no such media option", metadata: ["id": "\(id ?? "")", "kind": "\(kind.rawValue)"])
            return
        case .unchanged: return
        case .chosen(let option): chosen = option
        }
        emit(.mediaOptionSelected(chosen, kind: kind))
        // A rendition with its own playlist is a stream of its own: a real client loads it to play it. Without a
        // decoder only the playlist is fetched (its failure is a warning: the main stream plays on).
        guard let chosen, let url = mediaSelection.urls[chosen.id] else { return }
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
