public import PlaytraceCore
public import PlaytraceHLS
public import PlaytracePlayer

/// The ad breaks a stream signals, gathered from every media playlist an engine reads (the first one, each live
/// refresh, a variant switched to): a live stream's breaks are known as they appear, a break whose opening tag slid
/// out of the window stays the break already known, and breaks that ended before the window are forgotten, so that
/// a long session holds only those it can still reach. Both engines keep one (DESIGN: the ad tracker sees the same
/// breaks on every engine).
public struct AdBreakLedger: Sendable {
    /// The breaks known, by ID.
    public private(set) var breaks: [String: SignalledAdBreak] = [:]

    public init() {}

    /// Notes the breaks of a media playlist; returns whether one is new or changed (an end signal arrived, a
    /// duration became known).
    /// - Parameters:
    ///   - playlist: the playlist just read.
    ///   - offset: where the playlist's own timeline (which starts at its first segment) lies on the engine's.
    ///   - windowStart: the start of the engine's window: breaks that ended before it are forgotten.
    public mutating func note(_ playlist: MediaPlaylist, offset: MediaTime, windowStart: MediaTime) -> Bool {
        var changed = false
        for signal in playlist.adBreaks {
            let placed = signal.startTime.map { $0 + offset }
            let id = signal.startedBeforeWindow ? knownID(source: signal.source.rawValue, start: placed) ?? signal.id : signal.id
            // A later tag of a range whose first tag slid out of the window (its end: END-DATE, SCTE35-IN) may not be
            // placeable on its own: it is the break already known, now closed.
            let earlier = breaks[id]
            let known = SignalledAdBreak(
                id: id, source: signal.source.rawValue, start: placed ?? earlier?.start,
                startDate: signal.startDate ?? earlier?.startDate, duration: signal.duration ?? earlier?.duration,
                isClosed: signal.isClosed || earlier?.isClosed == true)
            if breaks[id] != known {
                breaks[id] = known
                changed = true
            }
        }
        for (id, known) in breaks where known.timeRange.map({ $0.end < windowStart }) ?? false {
            breaks[id] = nil
        }
        return changed
    }

    /// Notes a break an engine found signalled outside the playlists (in a segment); returns whether it is new or
    /// changed. Breaks that ended before `windowStart` are forgotten, as ``note(_:offset:windowStart:)`` forgets them.
    public mutating func note(_ signalled: SignalledAdBreak, windowStart: MediaTime) -> Bool {
        if let range = signalled.timeRange, range.end < windowStart { return false }
        guard breaks[signalled.id] != signalled else { return false }
        breaks[signalled.id] = signalled
        return true
    }

    /// The ID of a break already known with this source and start. A live window that has slid past a break's
    /// opening cue tag shows the break as one in progress, named after the window's first segment; it is the
    /// same break, found by its start (within a second: the start of one in progress is worked out from the time
    /// elapsed in it).
    private func knownID(source: String, start: MediaTime?) -> String? {
        guard let start else { return nil }
        return breaks.values.first { known in
            known.source == source && known.start.map { abs(($0 - start).seconds) < 1 } ?? false
        }?.id
    }

    /// The breaks known, in order of their start (those that cannot be placed last, by ID).
    public var sorted: [SignalledAdBreak] {
        breaks.values.sorted { lhs, rhs in
            switch (lhs.start, rhs.start) {
            case let (left?, right?): left == right ? lhs.id < rhs.id : left < right
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): lhs.id < rhs.id
            }
        }
    }
}
