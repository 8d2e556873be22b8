public import PlaytraceCore

/// An ad break as a media playlist signals it, whatever the signalling: SCTE-35 in `EXT-X-DATERANGE`, an HLS
/// interstitial, or legacy `EXT-X-CUE-OUT`/`EXT-X-CUE-IN` tags.
public struct AdBreakSignal: Sendable, Hashable {
    /// How the break was signalled.
    public enum Source: String, Sendable, Hashable {
        case dateRangeSCTE35 = "daterange-scte35"
        case interstitial = "interstitial"
        case cueTags = "cue-out/cue-in"
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

    /// The break's range on the playlist's timeline, when both its start and its duration are known.
    public var timeRange: MediaTimeRange? {
        guard let startTime, let duration else { return nil }
        return MediaTimeRange(start: startTime, duration: duration)
    }
}

extension MediaPlaylist {
    /// The ad breaks the playlist signals, in order of their start.
    public var adBreaks: [AdBreakSignal] { AdBreakExtraction.extract(from: self) }
}

enum AdBreakExtraction {
    static func extract(from playlist: MediaPlaylist) -> [AdBreakSignal] {
        let map = ProgramDateTimeMap(playlist)
        var breaks: [AdBreakSignal] = []
        var indexByID: [String: Int] = [:]
        for range in playlist.dateRanges where range.signalsAdBreak {
            if let index = indexByID[range.id] {
                if range.scte35In != nil || range.endDate != nil {
                    breaks[index].isClosed = true
                    if breaks[index].duration == nil, let end = range.effectiveEndDate ?? (range.scte35In != nil ? range.startDate : nil),
                       let start = breaks[index].startDate {
                        breaks[index].duration = end - start
                    }
                }
                continue
            }
            var signal = AdBreakSignal(
                id: range.id, source: range.classIdentifier == DateRange.interstitialClass ? .interstitial : .dateRangeSCTE35,
                startTime: map.time(at: range.startDate), startDate: range.startDate,
                duration: range.duration ?? range.endDate.map { $0 - range.startDate } ?? range.plannedDuration,
                isClosed: range.scte35In != nil || range.endDate != nil || range.duration != nil,
                interstitial: range.interstitial)
            if let encoded = range.scte35Out ?? range.scte35Command ?? range.scte35In {
                do {
                    let section = try SpliceInfoSection(encoded: encoded)
                    signal.scte35 = section
                    if signal.duration == nil { signal.duration = announcedDuration(section) }
                } catch {
                    signal.scte35Error = error
                }
            }
            indexByID[range.id] = breaks.count
            breaks.append(signal)
        }
        var open: Int?
        for segment in playlist.segments {
            if let cue = segment.tags.cueOut {
                var signal = AdBreakSignal(
                    id: "cue-\(segment.mediaSequence)", source: .cueTags, startTime: segment.startTime,
                    startDate: map.date(at: segment.startTime), duration: cue.duration, isClosed: false)
                if let encoded = segment.tags.oatclsSCTE35 {
                    do { signal.scte35 = try SpliceInfoSection(encoded: encoded) } catch { signal.scte35Error = error }
                }
                open = breaks.count
                breaks.append(signal)
            }
            if segment.tags.isCueIn, let index = open {
                breaks[index].isClosed = true
                if let start = breaks[index].startTime {
                    let measured = segment.startTime - start
                    if breaks[index].duration == nil { breaks[index].duration = measured }
                }
                open = nil
            }
        }
        if playlist.trailingTags.isCueIn, let index = open, let start = breaks[index].startTime {
            breaks[index].isClosed = true
            if breaks[index].duration == nil { breaks[index].duration = playlist.duration - start }
        }
        return breaks.sorted { ($0.startTime?.seconds ?? .infinity) < ($1.startTime?.seconds ?? .infinity) }
    }

    private static func announcedDuration(_ section: SpliceInfoSection) -> MediaTime? {
        if case .spliceInsert(let insert) = section.command, let duration = insert.breakDuration {
            return MediaTime(seconds: duration.seconds)
        }
        return section.segmentationDescriptors.first { $0.durationSeconds != nil }?.durationSeconds
            .map(MediaTime.init(seconds:))
    }
}
