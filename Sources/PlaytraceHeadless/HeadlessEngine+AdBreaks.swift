import PlaytraceCore
import PlaytraceHLS
import PlaytraceHLSPlayback
import PlaytracePlayer

/// The ad breaks the stream signals, read from every media playlist the engine merges (``AdBreakLedger``).
extension HeadlessEngine {
    /// Notes the breaks of a media playlist just merged into the timeline; emits ``EngineEvent/adBreaksChanged(_:)``
    /// when one is new or changed.
    func noteAdBreaks(of playlist: MediaPlaylist) {
        guard let first = playlist.segments.first, let placed = timeline.segment(sequence: first.mediaSequence) else {
            return
        }
        // The playlist's own timeline starts at its first segment; the engine's places that segment at `placed`.
        let offset = placed.start - first.startTime
        if adBreaks.note(playlist, offset: offset, windowStart: timeline.range.start) {
            emit(.adBreaksChanged(adBreaks.sorted))
        }
    }
}
