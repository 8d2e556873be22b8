/// How a representation's segments are addressed, once inherited: each attribute of its `SegmentTemplate`,
/// `SegmentList` or `SegmentBase` from the nearest level that writes it (Representation, then AdaptationSet, then
/// Period), the `SegmentTimeline` as a whole child (Shaka's `inheritAttribute`; ExoPlayer's parent defaults).
///
/// The kind is the nearest level's: a representation with its own `SegmentList` under a period's `SegmentTemplate`
/// is addressed by its list.
public struct SegmentAddressing: Sendable, Hashable {
    /// Where the segments' times come from.
    public enum Timing: Sendable, Hashable {
        /// `@duration` ticks each ("simple addressing"); segment k starts at k × duration after the period's start.
        case duration(Int64)
        /// Explicit times; segment times minus `@presentationTimeOffset` place them in the period.
        case timeline(SegmentTimeline)
        /// One segment spanning the period (a list of one URL, a template naming one file).
        case whole
    }

    /// How segments are named.
    public enum Scheme: Sendable, Hashable {
        /// `SegmentTemplate@media`, filled per segment.
        case template(SegmentURLTemplate, Timing)
        /// `SegmentList/SegmentURL`s, one per segment.
        case list([URLRange], Timing)
        /// One segment: the base URL itself (`SegmentBase`, or no segment information at all), with the byte range
        /// of its `sidx` when written.
        case single(indexRange: ByteRange?, media: URLRange?)
    }

    public var scheme: Scheme
    public var timescale: Timescale
    /// `@presentationTimeOffset` in ticks (0 when absent).
    public var presentationTimeOffset: Int64
    /// `@startNumber` (1 when absent).
    public var startNumber: Int64
    /// `@endNumber`, the last segment's number, when written.
    public var endNumber: Int64?
    /// The initialization segment: a template filled with the representation's id and bandwidth, or a URL and range.
    public var initialization: Initialization?
    /// `@availabilityTimeOffset` of the segment information, seconds (0 when absent).
    public var availabilityTimeOffset: Double

    /// Where an initialization segment is.
    public enum Initialization: Sendable, Hashable {
        case template(SegmentURLTemplate)
        case url(URLRange)
    }

    /// Where a presentation time (in ticks) lies from its period's start: (time − `@presentationTimeOffset`) /
    /// timescale, as an event's or a producer reference's time is placed.
    public func periodOffset(ofPresentationTime ticks: Int64) -> Duration {
        timescale.duration(ofTicks: ticks) - timescale.duration(ofTicks: presentationTimeOffset)
    }

    /// The addressing of a representation under an adaptation set under a period; `nil`, with a problem, when its
    /// segments cannot be named (a template whose `$Number$` or `$Time$` has neither `@duration` nor a timeline).
    /// - Parameters:
    ///   - levels: the segment information of the representation, its adaptation set and its period, in that order.
    ///   - periodDuration: the period's length when known: where a timeline's last `r < 0` stops, and past which no
    ///     segment is listed.
    static func inherited(_ levels: [SegmentInformation], periodDuration: Duration?, line: Int,
                          problems: inout [MPDProblem]) -> SegmentAddressing? {
        guard let nearest = levels.first(where: { !$0.isEmpty }) else {
            return SegmentAddressing(scheme: .single(indexRange: nil, media: nil), timescale: Timescale(1),
                                     presentationTimeOffset: 0, startNumber: 1, initialization: nil,
                                     availabilityTimeOffset: 0)
        }
        if nearest.template != nil {
            let templates = levels.compactMap(\.template)
            func first<Value>(_ path: KeyPath<SegmentTemplate, Value?>) -> Value? { templates.lazy.compactMap { $0[keyPath: path] }.first }
            let timescale = Timescale(first(\.timescale))
            let offset = first(\.presentationTimeOffset) ?? 0
            let timing = Self.timing(first(\.timeline), duration: first(\.duration), timescale: timescale, offset: offset,
                                     periodDuration: periodDuration, problems: &problems)
            let media = first(\.media).map(SegmentURLTemplate.init)
            var addressing = SegmentAddressing(
                scheme: .single(indexRange: nil, media: nil), timescale: timescale,
                presentationTimeOffset: offset, startNumber: first(\.startNumber) ?? 1,
                endNumber: first(\.endNumber), initialization: first(\.initialization).map { .template(SegmentURLTemplate($0)) },
                availabilityTimeOffset: first(\.availabilityTimeOffset) ?? 0)
            switch (media, timing) {
            case (let media?, let timing?):
                addressing.scheme = .template(media, timing)
            case (let media?, nil) where !media.usesNumber && !media.usesTime:
                // One segment, named by the template (Shaka refuses it; a player that can play it does).
                problems.append(MPDProblem(line: line, "a SegmentTemplate without @duration or SegmentTimeline: its @media is one segment"))
                addressing.scheme = .template(media, .whole)
            case (nil, _):
                problems.append(MPDProblem(line: line, "a SegmentTemplate without @media: the representation is left out"))
                return nil
            default:
                problems.append(MPDProblem(line: line, "a SegmentTemplate numbering segments without @duration or SegmentTimeline: the representation is left out"))
                return nil
            }
            return addressing
        }
        if nearest.list != nil {
            let lists = levels.compactMap(\.list)
            func first<Value>(_ path: KeyPath<SegmentList, Value?>) -> Value? { lists.lazy.compactMap { $0[keyPath: path] }.first }
            let urls = lists.first { !$0.segmentURLs.isEmpty }?.segmentURLs ?? []
            let timescale = Timescale(first(\.timescale))
            let offset = first(\.presentationTimeOffset) ?? 0
            let timing = Self.timing(first(\.timeline), duration: first(\.duration), timescale: timescale, offset: offset,
                                     periodDuration: periodDuration, problems: &problems)
            if timing == nil, urls.count > 1 {
                problems.append(MPDProblem(line: line, "a SegmentList of \(urls.count) segments without @duration or SegmentTimeline: only its first is played"))
            }
            return SegmentAddressing(
                scheme: .list(urls, timing ?? .whole), timescale: timescale, presentationTimeOffset: offset, startNumber: first(\.startNumber) ?? 1,
                initialization: first(\.initialization).map { .url($0) }, availabilityTimeOffset: 0)
        }
        let bases = levels.compactMap(\.base)
        func first<Value>(_ path: KeyPath<SegmentBase, Value?>) -> Value? { bases.lazy.compactMap { $0[keyPath: path] }.first }
        return SegmentAddressing(
            scheme: .single(indexRange: first(\.indexRange), media: nil), timescale: Timescale(first(\.timescale)),
            presentationTimeOffset: first(\.presentationTimeOffset) ?? 0, startNumber: 1,
            initialization: first(\.initialization).map { .url($0) },
            availabilityTimeOffset: first(\.availabilityTimeOffset) ?? 0)
    }

    /// A timeline when one is written (resolved up to the period's end), else `@duration` ticks; `nil` with neither.
    private static func timing(_ entries: [SegmentTimeline.Entry]?, duration: Int64?, timescale: Timescale, offset: Int64,
                               periodDuration: Duration?, problems: inout [MPDProblem]) -> Timing? {
        if let entries {
            return .timeline(timeline(entries, timescale: timescale, offset: offset, periodDuration: periodDuration,
                                      problems: &problems))
        }
        return duration.map { .duration($0) }
    }

    /// A timeline resolved up to the period's end (on the media timeline: the offset plus the period's length).
    private static func timeline(_ entries: [SegmentTimeline.Entry], timescale: Timescale, offset: Int64,
                                 periodDuration: Duration?, problems: inout [MPDProblem]) -> SegmentTimeline {
        let end = periodDuration.map { SegmentTimeline.saturatingSum(offset, timescale.ticksRoundingUp(in: $0)) }
        let timeline = SegmentTimeline(entries: entries, end: end)
        problems += timeline.problems
        return timeline
    }
}

extension SegmentAddressing {
    /// The addressing of a `SegmentBase` representation once its index (`sidx`) is read: a list of the file's byte
    /// ranges, timed by a timeline that starts at the index's earliest presentation time, in the index's timescale.
    /// The initialization range is kept, or, when none is written, is the bytes before the index (where the `moov`
    /// is in a file that has one). `nil` for any other scheme, or an index with a subsegment of no duration.
    /// - Parameters:
    ///   - index: the index read from the bytes of `SegmentBase@indexRange`.
    ///   - periodDuration: the period's length when known, past which no segment is listed.
    public func indexed(by index: SegmentIndexBox, periodDuration: Duration?) -> (SegmentAddressing, [MPDProblem])? {
        guard case .single(let indexRange?, let media) = scheme,
              index.references.allSatisfy({ $0.duration > 0 }) else { return nil }
        var entries: [SegmentTimeline.Entry] = []
        for reference in index.references {
            if let last = entries.last, last.duration == reference.duration {
                entries[entries.count - 1].repeatCount += 1
            } else {
                entries.append(SegmentTimeline.Entry(time: entries.isEmpty ? index.earliestPresentationTime : nil,
                                                     duration: reference.duration))
            }
        }
        let timescale = Timescale(index.timescale)
        // The offset in the index's ticks (the MPD writes it in its own timescale, which should be the same).
        let (scaled, overflow) = presentationTimeOffset.multipliedReportingOverflow(by: index.timescale)
        let offset = overflow ? presentationTimeOffset : scaled / max(1, self.timescale.ticksPerSecond)
        var problems: [MPDProblem] = []
        let timeline = Self.timeline(entries, timescale: timescale, offset: offset, periodDuration: periodDuration,
                                     problems: &problems)
        var indexed = self
        indexed.scheme = .list(index.references.map { URLRange(url: media?.url, range: $0.range) }, .timeline(timeline))
        indexed.timescale = timescale
        indexed.presentationTimeOffset = offset
        if initialization == nil, indexRange.first > 0 {
            indexed.initialization = .url(URLRange(url: media?.url, range: ByteRange(first: 0, last: indexRange.first - 1)))
        }
        return (indexed, problems)
    }
}
