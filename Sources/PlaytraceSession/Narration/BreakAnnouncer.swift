import PlaytraceCore
import PlaytracePlayer

/// Names each ad break the engine reports: when it is first signalled (a live stream's as they appear), when it
/// changes (its end signalled, its duration known), and when the playhead enters a stitched one. An interstitial is
/// said by the item's tracker as it begins (``SessionItemTracker``): the primary's playhead stands still then, where the
/// interstitial snapped to, and would cross the interstitial's date only after it played.
///
/// A stream often signals one stitched break twice — a `#EXT-X-CUE-OUT` and an SCTE-35 `EXT-X-DATERANGE` at the same
/// place — and the engine reports each signal. Signals of stitched breaks that start within ``sameBreakTolerance`` of
/// each other are one break here, named by its first signal, with every source listed.
@MainActor
final class BreakAnnouncer {
    /// One break as announced: the signals that make it up.
    struct Break: Equatable {
        var ids: [String]
        var sources: [String]
        var start: MediaTime?
        var duration: MediaTime?
        var isClosed: Bool

        var timeRange: MediaTimeRange? {
            guard let start, let duration else { return nil }
            return MediaTimeRange(start: start, end: start + duration)
        }
    }

    /// How far apart (seconds) two stitched signals' starts may be for them to be one break.
    static let sameBreakTolerance = 0.5

    /// The breaks as last announced, by key (an item and the break's first signal).
    private var announced: [String: Break] = [:]
    /// Each signal's break key.
    private var keyOfSignal: [String: String] = [:]
    private var entered: Set<String> = []

    /// The lines to print for the item's breaks with the playhead at `time`: breaks new or changed, and breaks
    /// entered.
    func lines(item: String, breaks signals: [SignalledAdBreak], at time: MediaTime) -> [String] {
        var lines: [String] = []
        for adBreak in Self.group(signals) {
            let signalKeys = adBreak.ids.map { item + "\u{1F}" + $0 }
            let key = signalKeys.lazy.compactMap { self.keyOfSignal[$0] }.first ?? signalKeys[0]
            for signalKey in signalKeys { keyOfSignal[signalKey] = key }
            if announced[key] != adBreak {
                announced[key] = adBreak
                lines.append("ad break \(Self.name(adBreak)) signalled: \(adBreak.sources.joined(separator: " + ")) at "
                    + (adBreak.start?.timecode ?? "?")
                    + (adBreak.duration.map { " for " + Format.seconds($0.seconds) } ?? "")
                    + (adBreak.isClosed ? "" : " (open)"))
            }
            guard adBreak.sources != ["interstitial"], adBreak.timeRange?.contains(time) ?? false,
                  entered.insert(key).inserted else { continue }
            lines.append("ad break \(adBreak.ids[0]) (\(adBreak.sources.joined(separator: " + ")), "
                + "\(adBreak.duration.map { Format.seconds($0.seconds) } ?? "open"))")
        }
        return lines
    }

    /// `break-1`, or `break-1 (also cue-2)` for a break signalled twice.
    private static func name(_ adBreak: Break) -> String {
        adBreak.ids.count == 1 ? adBreak.ids[0] : adBreak.ids[0] + " (also " + adBreak.ids.dropFirst().joined(separator: ", ") + ")"
    }

    /// The signals as breaks, in the engine's order: a stitched signal that starts where an earlier stitched one does
    /// joins its break (the longer known duration, closed when either is).
    static func group(_ signals: [SignalledAdBreak]) -> [Break] {
        var breaks: [Break] = []
        var stitched: [Bool] = []
        for signal in signals {
            if signal.isStitched, let start = signal.start,
               let index = breaks.indices.first(where: { index in
                   stitched[index] && breaks[index].start.map { abs($0.seconds - start.seconds) <= sameBreakTolerance } == true
               }) {
                breaks[index].ids.append(signal.id)
                if !breaks[index].sources.contains(signal.source) { breaks[index].sources.append(signal.source) }
                if let duration = signal.duration { breaks[index].duration = max(breaks[index].duration ?? duration, duration) }
                breaks[index].isClosed = breaks[index].isClosed || signal.isClosed
                continue
            }
            breaks.append(Break(ids: [signal.id], sources: [signal.source], start: signal.start, duration: signal.duration,
                                isClosed: signal.isClosed))
            stitched.append(signal.isStitched)
        }
        return breaks
    }
}
