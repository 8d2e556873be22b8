import PlaytraceCore
import PlaytraceHLS
import PlaytracePlayer

/// The ad breaks the stream signals, read from every media playlist the engine merges (the first one, each live
/// refresh, a variant switched to): a live stream's breaks are reported as they appear. Breaks that ended before
/// the live window are forgotten, so that a long session holds only those it can still reach.
extension HeadlessEngine {
    /// Notes the breaks of a media playlist just merged into the timeline; emits ``EngineEvent/adBreaksChanged(_:)``
    /// when one is new or changed (an end signal arrived, a duration became known).
    func noteAdBreaks(of playlist: MediaPlaylist) {
        guard let first = playlist.segments.first, let placed = timeline.segment(sequence: first.mediaSequence) else {
            return
        }
        // The playlist's own timeline starts at its first segment; the engine's places that segment at `placed`.
        let offset = placed.start - first.startTime.seconds
        var changed = false
        for signal in playlist.adBreaks {
            let placed = signal.startTime.map { MediaTime(seconds: $0.seconds + offset) }
            let id = signal.startedBeforeWindow ? knownID(source: signal.source.rawValue, start: placed) ?? signal.id : signal.id
            // A later tag of a range whose first tag slid out of the window (its end: END-DATE, SCTE35-IN) may not be
            // placeable on its own: it is the break already known, now closed.
            let earlier = adBreaks[id]
            let known = SignalledAdBreak(
                id: id, source: signal.source.rawValue, start: placed ?? earlier?.start,
                startDate: signal.startDate ?? earlier?.startDate, duration: signal.duration ?? earlier?.duration,
                isClosed: signal.isClosed || earlier?.isClosed == true)
            if adBreaks[id] != known {
                adBreaks[id] = known
                changed = true
            }
        }
        let windowStart = timeline.range.start
        for (id, known) in adBreaks where known.timeRange.map({ $0.end < windowStart }) ?? false {
            adBreaks[id] = nil
        }
        if changed { emit(.adBreaksChanged(signalledAdBreaks)) }
    }

    /// The ID of a break already known with this source and start. A live window that has slid past a break's
    /// opening cue tag shows the break as one in progress, named after the window's first segment; it is the
    /// same break, found by its start (within a second: the start of one in progress is worked out from the time
    /// elapsed in it).
    private func knownID(source: String, start: MediaTime?) -> String? {
        guard let start else { return nil }
        return adBreaks.values.first { known in
            known.source == source && known.start.map { abs(($0 - start).seconds) < 1 } ?? false
        }?.id
    }

    /// The breaks known, in order of their start (those that cannot be placed last, by ID).
    var signalledAdBreaks: [SignalledAdBreak] {
        adBreaks.values.sorted { lhs, rhs in
            switch (lhs.start, rhs.start) {
            case let (left?, right?): left == right ? lhs.id < rhs.id : left < right
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): lhs.id < rhs.id
            }
        }
    }
}
