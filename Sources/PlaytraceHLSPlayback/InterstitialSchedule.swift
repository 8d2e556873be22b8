public import Foundation
public import PlaytraceCore
public import PlaytraceHLS
public import PlaytracePlayer

/// The interstitials an HLS stream schedules, and the rules of rfc8216bis appendix D that say which one plays when:
/// placed at their date on the primary's timeline (`X-SNAP=OUT` moving one to the nearest segment boundary), pre- and
/// post-rolls by `CUE`, `CUE=ONCE`, a `JUMP` restriction met by a forward seek, the one under way where playback
/// starts. It holds no I/O and no clock: every engine that plays HLS interstitials (the headless engine, MPVEngine)
/// keeps one, so that the ad tracker sees the same picture on each.
///
/// ```swift
/// var schedule = InterstitialSchedule()
/// schedule.note(playlist, baseURL: url, placement: { placements[$0] }, nearestBoundary: { $0 })
/// if let next = schedule.midRoll(from: playhead, to: playhead + step) { /* stop at next.event.start */ }
/// ```
public struct InterstitialSchedule: Sendable {
    /// An interstitial a playlist announces: where it plays, how to get its assets, and whether it played.
    public struct Entry: Sendable {
        /// The interstitial as the engine reports it.
        public var event: InterstitialEvent
        /// Its date range's `X-` attributes, as the playlist wrote them.
        public var attributes: Interstitial
        /// The media playlist's URL, which the asset list or asset URI is relative to.
        public var baseURL: URL
        /// Whether it began (a mid-roll without `CUE=ONCE` is playable again after a seek back before it).
        public var hasPlayed = false
    }

    /// Where a segment begins on the primary's timeline, and its program date time.
    public struct SegmentPlacement: Sendable {
        public var start: MediaTime
        public var date: StreamDate?

        /// A segment's placement.
        public init(start: MediaTime, date: StreamDate?) {
            self.start = start
            self.date = date
        }
    }

    /// The interstitials by their date range's ID.
    public private(set) var entries: [String: Entry] = [:]

    /// An empty schedule.
    public init() {}

    /// Notes the interstitials of a media playlist (those already known keep their state). Each is placed by its
    /// `START-DATE` from the program date time of the segment that carries it.
    /// - Parameters:
    ///   - playlist: the media playlist.
    ///   - baseURL: its address, which asset lists and asset URIs are relative to.
    ///   - placement: where a segment (by media sequence number) lies on the engine's timeline; `nil` when unknown.
    ///   - nearestBoundary: the segment boundary nearest a position on that timeline, for `X-SNAP=OUT`.
    public mutating func note(_ playlist: MediaPlaylist, baseURL: URL, placement: (Int) -> SegmentPlacement?,
                              nearestBoundary: (MediaTime) -> MediaTime) {
        for segment in playlist.segments {
            for range in segment.tags.dateRanges {
                guard let attributes = range.interstitial, entries[range.id] == nil,
                      let placed = placement(segment.mediaSequence), let date = placed.date else { continue }
                let datePosition = max(.zero, placed.start + MediaTime(seconds: range.startDate.secondsSince1970 - date.secondsSince1970))
                var start = datePosition
                if attributes.snap.contains(.out) { start = nearestBoundary(start) }
                let cue: InterstitialEvent.Placement = range.cue.contains(.pre) ? .preRoll
                    : range.cue.contains(.post) ? .postRoll : .midRoll
                let skipControl = attributes.skipControlOffset.map {
                    InterstitialEvent.SkipControl(offset: $0, duration: attributes.skipControlDuration,
                                                  labelID: attributes.skipControlLabelID)
                }
                let event = InterstitialEvent(
                    id: range.id, start: start, startDate: range.startDate,
                    resumeOffset: attributes.resumeOffset, playoutLimit: attributes.playoutLimit,
                    isSkipRestricted: attributes.restrictions.contains(.skip),
                    isJumpRestricted: attributes.restrictions.contains(.jump),
                    placement: cue, playsOnce: range.cue.contains(.once), skipControl: skipControl,
                    datePosition: datePosition, duration: range.duration ?? range.plannedDuration)
                entries[range.id] = Entry(event: event, attributes: attributes, baseURL: baseURL)
            }
        }
    }

    /// Forgets the played ones a live window left behind (before `windowStart`): a long session holds only what it
    /// can reach.
    public mutating func forgetPlayed(before windowStart: MediaTime) {
        entries = entries.filter { !$0.value.hasPlayed || $0.value.event.start >= windowStart }
    }

    /// The interstitials, in order of their start (for the snapshot).
    public var events: [InterstitialEvent] {
        entries.values.map(\.event).sorted { ($0.start, $0.id) < ($1.start, $1.id) }
    }

    /// The first mid-roll not played yet whose start lies in `from...to`.
    public func midRoll(from: MediaTime, to: MediaTime) -> Entry? {
        entries.values
            .filter { !$0.hasPlayed && $0.event.placement == .midRoll && $0.event.start >= from && $0.event.start <= to }
            .min { ($0.event.start, $0.event.id) < ($1.event.start, $1.event.id) }
    }

    /// The first pre-roll (`CUE=PRE`) or post-roll (`CUE=POST`) not played yet, in order of their dates.
    public func pending(_ placement: InterstitialEvent.Placement) -> Entry? {
        entries.values
            .filter { !$0.hasPlayed && $0.event.placement == placement }
            .min { ($0.event.startDate?.secondsSince1970 ?? 0, $0.event.id) < ($1.event.startDate?.secondsSince1970 ?? 0, $1.event.id) }
    }

    /// The last JUMP-restricted mid-roll not played yet that a forward seek from `from` to `to` would pass: it plays
    /// before the seek continues (the one nearest the target, as a snapback plays the break last passed).
    public func jumpRestricted(from: MediaTime, to: MediaTime) -> Entry? {
        guard to > from else { return nil }
        return entries.values
            .filter {
                !$0.hasPlayed && $0.event.isJumpRestricted && $0.event.placement == .midRoll
                    && $0.event.start > from && $0.event.start <= to
            }
            .max { ($0.event.start, $0.event.id) < ($1.event.start, $1.event.id) }
    }

    /// The mid-roll under way at a position where playback starts: one that stands for a span of the primary (a
    /// resume offset other than 0, and a duration), begun before the position and not over at it, with how far into
    /// it the position is. Playback joins it there, as players do on a live stream.
    public func underWay(at position: MediaTime) -> (entry: Entry, offset: MediaTime)? {
        let tolerance = MediaTime(seconds: 0.001)
        for entry in entries.values where !entry.hasPlayed && entry.event.placement == .midRoll {
            let span = entry.event.resumeOffset ?? entry.event.duration ?? .zero
            let offset = position - entry.event.start
            if span > .zero, offset > tolerance, offset < span - tolerance { return (entry, offset) }
        }
        return nil
    }

    /// A seek to `target` makes the mid-rolls after it, played but without `CUE=ONCE`, playable again.
    public mutating func rearm(after target: MediaTime) {
        for (id, entry) in entries
        where entry.hasPlayed && !entry.event.playsOnce && entry.event.placement == .midRoll && entry.event.start > target {
            entries[id]?.hasPlayed = false
        }
    }

    /// Marks an interstitial as begun; a pre- or post-roll is placed where the primary is (`playhead`: where
    /// playback starts, or the primary's end). Returns the entry as it plays.
    public mutating func begin(_ entry: Entry, at playhead: MediaTime) -> Entry {
        var entry = entry
        if entry.event.placement != .midRoll {
            entry.event.start = playhead
            entry.event.datePosition = entry.event.start
        }
        entry.hasPlayed = true
        entries[entry.event.id] = entry
        return entry
    }

    /// Where playback joins an interstitial `offset` into it: the assets before the offset are passed over, and the
    /// one it falls in begins there. Returns that asset's index and how far into it.
    public static func joinPoint(at offset: MediaTime, in assets: [InterstitialAsset]) -> (index: Int, into: MediaTime) {
        var index = 0
        var into = offset
        while into > .zero, index + 1 < assets.count, let duration = assets[index].duration, into >= duration {
            into -= duration
            index += 1
        }
        return (index, into)
    }

    /// Where an asset begins on its interstitial's timeline: the durations of the assets before it (0 for one whose
    /// duration is unknown).
    public static func offset(ofAsset index: Int, in assets: [InterstitialAsset]) -> MediaTime {
        assets.prefix(index).reduce(.zero) { $0 + ($1.duration ?? .zero) }
    }

    /// Where the primary resumes after an interstitial: its start when it was cancelled, otherwise its start plus its
    /// resume offset (by default what it played, `played`; a pre-roll's default is where it began), moved by `X-SNAP=IN`
    /// to the nearest segment boundary.
    /// - Parameters:
    ///   - entry: the interstitial that ended.
    ///   - played: how long it played (from its beginning, an interstitial joined under way included).
    ///   - cancelled: whether it was cancelled (an asset-list error).
    ///   - nearestBoundary: the segment boundary nearest a position, for `X-SNAP=IN`.
    public static func resumePosition(after entry: Entry, played: MediaTime, cancelled: Bool,
                                      nearestBoundary: (MediaTime) -> MediaTime) -> MediaTime {
        let played = entry.event.placement == .preRoll ? .zero : played
        let offset = cancelled ? .zero : (entry.event.resumeOffset ?? played)
        var target = entry.event.start + offset
        if entry.attributes.snap.contains(.in) { target = nearestBoundary(target) }
        return target
    }
}
