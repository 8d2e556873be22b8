public import Foundation

/// A media segment of a representation, named and placed on the presentation's timeline.
public struct SegmentReference: Sendable, Hashable {
    /// `$Number$`: the start number plus the segment's index in the period.
    public var number: Int64
    /// `$Time$`: the segment's start on the media timeline, in ticks (the presentation time offset included; k ×
    /// `@duration` in simple addressing).
    public var time: Int64
    /// Its start on the presentation's timeline (MPD time: from the presentation's start, or from
    /// `MPD@availabilityStartTime` in a live presentation).
    public var start: Duration
    public var duration: Duration
    /// The URL as the MPD names it, relative to the representation's base URLs (`nil`: the base URL itself).
    public var path: String?
    public var byteRange: ByteRange?

    public init(number: Int64, time: Int64, start: Duration, duration: Duration, path: String?, byteRange: ByteRange? = nil) {
        self.number = number
        self.time = time
        self.start = start
        self.duration = duration
        self.path = path
        self.byteRange = byteRange
    }

    public var end: Duration { start + duration }

    /// Its URL at each of `locations`, in their order (the first to request, the rest to fail over to).
    public func urls(at locations: [ResolvedBaseURL]) -> [URL] {
        guard let path, !path.isEmpty else { return locations.map(\.url) }
        return locations.compactMap { URL(string: path, relativeTo: $0.url)?.absoluteURL }
    }
}

/// A representation's segments in one period, computed when asked, never listed whole: a `$Number$` template over
/// a year of one-second segments, or an `S` repeated a million times, costs the same as one segment. Every lookup
/// is constant or logarithmic in the timeline's runs.
///
/// Times are MPD times (``SegmentReference/start``); a segment belongs to the period when it starts before the
/// period's end, and the last one is cut at the period's end, as ExoPlayer and Shaka cut it.
public struct SegmentIndex: Sendable, Hashable {
    public let addressing: SegmentAddressing
    public let periodStart: Duration
    /// `nil`: open (the last period of a live presentation).
    public let periodEnd: Duration?
    public let representationID: String
    public let bandwidth: Int64?

    public init(addressing: SegmentAddressing, periodStart: Duration, periodEnd: Duration?, representationID: String,
                bandwidth: Int64?) {
        self.addressing = addressing
        self.periodStart = periodStart
        self.periodEnd = periodEnd
        self.representationID = representationID
        self.bandwidth = bandwidth
    }

    private var timing: SegmentAddressing.Timing {
        switch addressing.scheme {
        case .template(_, let timing), .list(_, let timing): timing
        case .single: .whole
        }
    }

    /// How many segments the period holds; `nil` without end (a live period addressed by `@duration`, or a
    /// timeline's last `r < 0` in an open period): the availability window bounds those.
    public var count: Int64? {
        var count: Int64?
        switch timing {
        case .whole:
            count = 1
        case .timeline(let timeline):
            count = timeline.segmentCount
        case .duration(let ticks):
            if let periodEnd {
                let length = addressing.timescale.ticksRoundingUp(in: periodEnd - periodStart)
                count = max(0, SegmentTimeline.ceilingDivide(length, by: ticks))
            }
        }
        if case .list(let urls, _) = addressing.scheme { count = min(count ?? Int64(urls.count), Int64(urls.count)) }
        if let endNumber = addressing.endNumber {
            let numbered = max(0, endNumber - addressing.startNumber + 1)
            count = min(count ?? numbered, numbered)
        }
        return count
    }

    /// The segment at `index` (0-based in the period), or `nil` outside the period.
    public func segment(at index: Int64) -> SegmentReference? {
        guard index >= 0 else { return nil }
        if let count, index >= count { return nil }
        let timescale = addressing.timescale
        var start: Duration, length: Duration, time: Int64
        switch timing {
        case .whole:
            (start, length, time) = (periodStart, (periodEnd ?? periodStart) - periodStart, addressing.presentationTimeOffset)
        case .duration(let ticks):
            let (offset, overflow) = ticks.multipliedReportingOverflow(by: index)
            guard !overflow else { return nil }
            time = offset
            start = periodStart + timescale.duration(ofTicks: offset)
            length = timescale.duration(ofTicks: ticks)
        case .timeline(let timeline):
            guard let segment = timeline.segment(at: index) else { return nil }
            time = segment.start
            start = periodStart + timescale.duration(ofTicks: segment.start) - timescale.duration(ofTicks: addressing.presentationTimeOffset)
            length = timescale.duration(ofTicks: segment.duration)
        }
        if let periodEnd, start + length > periodEnd { length = max(.zero, periodEnd - start) }
        let (number, overflow) = addressing.startNumber.addingReportingOverflow(index)
        guard !overflow else { return nil }
        var reference = SegmentReference(number: number, time: time, start: start, duration: length, path: nil)
        switch addressing.scheme {
        case .template(let media, _):
            reference.path = media.url(representationID: representationID, number: number, bandwidth: bandwidth, time: time)
        case .list(let urls, _):
            guard index < urls.count else { return nil }
            reference.path = urls[Int(index)].url
            reference.byteRange = urls[Int(index)].range
        case .single(_, let media):
            reference.path = media?.url
            reference.byteRange = media?.range
        }
        return reference
    }

    /// The index of the segment whose span holds `time` (MPD time); the first when `time` is before it, `nil` after
    /// the last.
    public func index(containing time: Duration) -> Int64? {
        let timescale = addressing.timescale
        let candidate: Int64
        switch timing {
        case .whole:
            candidate = 0
        case .duration(let ticks):
            let offset = timescale.ticks(in: time - periodStart)
            candidate = offset <= 0 ? 0 : offset / ticks
        case .timeline(let timeline):
            let ticks = SegmentTimeline.saturatingSum(timescale.ticks(in: time - periodStart), addressing.presentationTimeOffset)
            if let segment = timeline.segment(containing: ticks) {
                candidate = segment.index
            } else if let first = timeline.runs.first, ticks < first.start {
                candidate = 0
            } else {
                return nil
            }
        }
        if let count, candidate >= count { return nil }
        if let periodEnd, time >= periodEnd { return nil }
        return candidate
    }

    /// The segments overlapping `range` (MPD times), at most `limit` of them, in order.
    public func segments(overlapping range: Range<Duration>, limit: Int) -> [SegmentReference] {
        guard limit > 0, var index = index(containing: range.lowerBound) else { return [] }
        var segments: [SegmentReference] = []
        while segments.count < limit, let segment = segment(at: index), segment.start < range.upperBound {
            if segment.end > range.lowerBound || segment.duration == .zero { segments.append(segment) }
            index += 1
        }
        return segments
    }

    /// The initialization segment, when the representation has one: its path relative to the base URLs, and range.
    public var initialization: SegmentReference? {
        switch addressing.initialization {
        case nil: return nil
        case .template(let template)?:
            return SegmentReference(number: 0, time: 0, start: periodStart, duration: .zero,
                                    path: template.url(representationID: representationID, bandwidth: bandwidth))
        case .url(let url)?:
            return SegmentReference(number: 0, time: 0, start: periodStart, duration: .zero, path: url.url, byteRange: url.range)
        }
    }
}
