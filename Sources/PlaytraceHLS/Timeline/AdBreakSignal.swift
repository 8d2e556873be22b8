public import PlaytraceCore

/// An ad break as a media playlist signals it, whatever the signalling: SCTE-35 in `EXT-X-DATERANGE`, an HLS
/// interstitial, or legacy `EXT-X-CUE-OUT`/`EXT-X-CUE-IN` tags.
public struct AdBreakSignal: Sendable, Hashable {
    /// How the break was signalled.
    public enum Source: String, Sendable, Hashable {
        case dateRangeSCTE35 = "daterange-scte35"
        case interstitial = "interstitial"
        case cueTags = "cue-out/cue-in"
        /// A SCTE-35 message in `EXT-OATCLS-SCTE35` or `EXT-X-SPLICEPOINT-SCTE35` without a cue tag beside it.
        case scte35Tags = "scte35-tag"
    }

    /// The date range's ID, or `cue-<media sequence>` for cue tags.
    public var id: String
    public var source: Source
    /// Where the break starts on the playlist's timeline, when it can be placed.
    public var startTime: MediaTime?
    /// The stream date of the start, when known.
    public var startDate: StreamDate?
    /// The break's duration: announced, or measured from its end signal.
    public var duration: MediaTime?
    /// Whether an end signal (SCTE35-IN, CUE-IN, END-DATE) was seen.
    public var isClosed: Bool
    /// The interstitial's attributes, for interstitials.
    public var interstitial: Interstitial?
    /// The decoded SCTE-35 message that opened the break, when there is one and it decodes.
    public var scte35: SpliceInfoSection?
    /// Why the SCTE-35 message did not decode, when it did not.
    public var scte35Error: SCTE35Error?
    /// Whether the break was already in progress where the playlist starts (a live window that opens inside it:
    /// `EXT-X-CUE-OUT-CONT` or `EXT-X-CUE-SPAN` before any `EXT-X-CUE-OUT`); its start is then worked out from the
    /// time elapsed, and lies before the window.
    public var startedBeforeWindow = false

    /// The break's range on the playlist's timeline, when both its start and its duration are known.
    public var timeRange: MediaTimeRange? {
        guard let startTime, let duration else { return nil }
        return MediaTimeRange(start: startTime, duration: duration)
    }
}

extension MediaPlaylist {
    /// The ad breaks the playlist signals, in order of their start.
    public var adBreaks: [AdBreakSignal] { adBreaks(dates: ProgramDateTimeMap(self)) }

    /// The ad breaks, placed with a program-date-time map of this playlist that the caller already has.
    public func adBreaks(dates: ProgramDateTimeMap) -> [AdBreakSignal] {
        AdBreakExtraction.extract(from: self, dates: dates, dateRanges: dateRanges)
    }

    /// The ad breaks, placed with a program-date-time map of this playlist and read from its ``dateRanges``, both of
    /// which the caller already has (``dateRanges`` walks every segment each time it is read).
    ///
    /// - Parameters:
    ///   - dates: `ProgramDateTimeMap(self)`.
    ///   - dateRanges: this playlist's ``dateRanges``, as read.
    public func adBreaks(dates: ProgramDateTimeMap, dateRanges: [DateRange]) -> [AdBreakSignal] {
        AdBreakExtraction.extract(from: self, dates: dates, dateRanges: dateRanges)
    }
}

enum AdBreakExtraction {
    static func extract(from playlist: MediaPlaylist, dates map: ProgramDateTimeMap,
                        dateRanges: [DateRange]) -> [AdBreakSignal] {
        var breaks: [AdBreakSignal] = []
        var indexByID: [String: Int] = [:]
        // The CLASS of each END-ON-NEXT break still open, by index: it ends where the next range of its class starts.
        var endsOnNext: [Int: String] = [:]
        for range in dateRanges {
            // RFC 8216bis §4.4.5.1: tags with one ID are one range. A later tag closes the break with its END-DATE
            // or DURATION (a measured end beats a planned duration), with SCTE35-IN at its own later date, or with a
            // SCTE35-CMD that closes a break (a time signal ending the segmentation, say).
            if let index = indexByID[range.id] {
                let closingCommand = range.scte35Command.flatMap { try? SpliceInfoSection(encoded: $0) }
                    .map(closesBreak) == true
                let start = breaks[index].startDate
                let end = range.endDate
                    ?? (range.scte35In != nil && start.map { range.startDate > $0 } == true ? range.startDate : nil)
                if let duration = range.duration {
                    breaks[index].duration = duration
                    breaks[index].isClosed = true
                } else if let end, let start {
                    breaks[index].duration = end - start
                    breaks[index].isClosed = true
                } else if range.scte35In != nil || closingCommand {
                    breaks[index].isClosed = true
                }
                continue
            }
            for (index, rangeClass) in endsOnNext where rangeClass == range.classIdentifier {
                if let start = breaks[index].startDate, range.startDate > start {
                    breaks[index].duration = range.startDate - start
                    breaks[index].isClosed = true
                    endsOnNext[index] = nil
                }
            }
            guard range.signalsAdBreak else { continue }
            // A range of its own that only ends a break (SCTE35-IN, or a SCTE35-CMD that returns to the network or
            // ends a segmentation: a Provider Placement Opportunity End, 0x35) closes the last break still open; a
            // command that neither opens nor closes one (a Program Start, say) is no break.
            if range.classIdentifier != DateRange.interstitialClass, range.scte35Out == nil {
                let message = (range.scte35Command ?? range.scte35In).flatMap { try? SpliceInfoSection(encoded: $0) }
                let ends = range.scte35In != nil || message.map(closesBreak) == true
                if ends || message.map(opensBreak) != true {
                    if ends, let index = breaks.lastIndex(where: { !$0.isClosed && $0.source == .dateRangeSCTE35 }),
                       let start = breaks[index].startDate, range.startDate >= start {
                        breaks[index].duration = range.startDate - start
                        breaks[index].isClosed = true
                    }
                    if message != nil || range.scte35In != nil { continue }
                }
            }
            var signal = AdBreakSignal(
                id: range.id, source: range.classIdentifier == DateRange.interstitialClass ? .interstitial : .dateRangeSCTE35,
                startTime: map.time(at: range.startDate), startDate: range.startDate,
                duration: range.duration ?? range.endDate.map { $0 - range.startDate } ?? range.plannedDuration,
                isClosed: range.scte35In != nil || range.endDate != nil || range.duration != nil,
                interstitial: range.interstitial)
            if let encoded = range.scte35Out ?? range.scte35Command ?? range.scte35In { attach(encoded, to: &signal) }
            if range.endOnNext, !signal.isClosed, let rangeClass = range.classIdentifier { endsOnNext[breaks.count] = rangeClass }
            indexByID[range.id] = breaks.count
            breaks.append(signal)
        }
        var open: Int?
        var sawCueOut = false
        let segments = playlist.segments
        // Every tag this pass looks for is a rare one: the other segments are skipped without being copied.
        for index in segments.indices where segments[index].tags.mayHaveRareTags {
            let segment = segments[index]
            if let cue = segment.tags.cueOut {
                sawCueOut = true
                var signal = AdBreakSignal(
                    id: cue.id.map { "cue-\($0)" } ?? "cue-\(segment.mediaSequence)", source: .cueTags,
                    startTime: segment.startTime, startDate: map.date(at: segment.startTime), duration: cue.duration,
                    isClosed: false)
                if let encoded = cue.scte35 ?? segment.tags.oatclsSCTE35 { attach(encoded, to: &signal) }
                open = breaks.count
                breaks.append(signal)
            } else if open == nil, !sawCueOut, let progress = LegacyCueProgress(segment) {
                // A break already under way where the playlist starts.
                sawCueOut = true
                var signal = AdBreakSignal(
                    id: "cue-\(segment.mediaSequence)-in-progress", source: .cueTags,
                    startTime: segment.startTime - progress.elapsed,
                    startDate: map.date(at: segment.startTime).map { $0 - progress.elapsed }, duration: progress.duration,
                    isClosed: false)
                signal.startedBeforeWindow = progress.elapsed > .zero
                if let encoded = progress.scte35 {
                    do { signal.scte35 = try SpliceInfoSection(encoded: encoded) } catch { signal.scte35Error = error }
                }
                open = breaks.count
                breaks.append(signal)
            } else if let encoded = standaloneSCTE35(segment), let section = try? SpliceInfoSection(encoded: encoded) {
                if open == nil, opensBreak(section) {
                    var signal = AdBreakSignal(
                        id: "scte35-\(segment.mediaSequence)", source: .scte35Tags, startTime: segment.startTime,
                        startDate: map.date(at: segment.startTime), duration: announcedDuration(section), isClosed: false)
                    signal.scte35 = section
                    open = breaks.count
                    breaks.append(signal)
                } else if let index = open, closesBreak(section) {
                    close(&breaks[index], at: segment.startTime)
                    open = nil
                }
            }
            if segment.tags.isCueIn, let index = open {
                close(&breaks[index], at: segment.startTime)
                open = nil
            }
        }
        if playlist.trailingTags.isCueIn, let index = open, let start = breaks[index].startTime {
            breaks[index].isClosed = true
            breaks[index].duration = playlist.duration - start
        }
        // Sorted in place (the breaks of each kind come in playlist order already; a sorted copy would copy them all).
        breaks.sort { ($0.startTime?.seconds ?? .infinity) < ($1.startTime?.seconds ?? .infinity) }
        return breaks
    }

    /// Decodes the message that opened a break into it; a break without an announced duration takes the message's.
    private static func attach(_ encoded: String, to signal: inout AdBreakSignal) {
        do {
            let section = try SpliceInfoSection(encoded: encoded)
            signal.scte35 = section
            if signal.duration == nil { signal.duration = announcedDuration(section) }
        } catch {
            signal.scte35Error = error
        }
    }

    /// An end signal (`CUE-IN`, a SCTE-35 return to the network or segmentation end) closes the break where it
    /// stands: the time measured beats the duration announced (a `CUE-OUT:366` closed by a `CUE-IN` 40 s later
    /// lasted 40 s).
    private static func close(_ signal: inout AdBreakSignal, at time: MediaTime) {
        signal.isClosed = true
        if let start = signal.startTime, time >= start { signal.duration = time - start }
    }

    /// A SCTE-35 message carried by `EXT-OATCLS-SCTE35` or `EXT-X-SPLICEPOINT-SCTE35` on a segment without a cue tag.
    private static func standaloneSCTE35(_ segment: Segment) -> String? {
        if segment.tags.cueOutContinuation != nil || segment.tags.isCueIn { return nil }
        if let encoded = segment.tags.oatclsSCTE35 { return encoded }
        return segment.tags.unknownTags.first { $0.name == "#EXT-X-SPLICEPOINT-SCTE35" }
            .map { String($0.line.dropFirst("#EXT-X-SPLICEPOINT-SCTE35:".count)) }
    }

    /// Whether a message starts a break: an out-of-network splice_insert, or a segmentation descriptor of a start.
    private static func opensBreak(_ section: SpliceInfoSection) -> Bool {
        if case .spliceInsert(let insert) = section.command { return insert.isOutOfNetwork && !insert.isCancelled }
        return section.segmentationDescriptors.contains { $0.startsAd && !$0.isCancelled }
    }

    /// Whether a message ends a break: a return-to-network splice_insert, or a segmentation descriptor of an end.
    private static func closesBreak(_ section: SpliceInfoSection) -> Bool {
        if case .spliceInsert(let insert) = section.command { return !insert.isOutOfNetwork && !insert.isCancelled }
        return section.segmentationDescriptors.contains { $0.endsAd && !$0.isCancelled }
    }

    private static func announcedDuration(_ section: SpliceInfoSection) -> MediaTime? {
        if case .spliceInsert(let insert) = section.command, let duration = insert.breakDuration {
            return MediaTime(seconds: duration.seconds)
        }
        return section.segmentationDescriptors.first { $0.durationSeconds != nil }?.durationSeconds
            .map(MediaTime.init(seconds:))
    }
}
