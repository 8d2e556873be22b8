import Foundation
import PlaytraceCore
public import PlaytraceDASH
import PlaytraceHLS

extension DASHPlaylists {
    /// An ad break that SCTE-35 signals (an MPD's `EventStream`, or an `emsg` in a segment), on the MPD's timeline.
    struct SignalledBreak: Hashable {
        var start: Duration
        var duration: Duration
        /// The `splice_info_section`, base64, when the event carries it in binary.
        var scte35: String?
    }

    /// The breaks the SCTE-35 events of every period signal: an event's duration, else its `splice_insert`'s break
    /// duration, else (an event at its period's start, as an SSAI server marks an ad period) its period's length.
    /// A `splice_insert` back into the network opens none. Worked out once per MPD, not per playlist made.
    static func signalledBreaks(of presentation: ResolvedPresentation) -> [SignalledBreak] {
        var breaks: [SignalledBreak] = []
        for period in presentation.periods {
            for stream in period.eventStreams where stream.isSCTE35 {
                let timescale = Double(max(stream.timescale, 1))
                for event in stream.events {
                    let offset = (Double(event.presentationTime) - Double(stream.presentationTimeOffset)) / timescale
                    guard offset.isFinite, abs(offset) < 1e12 else { continue }
                    let start = period.start + .seconds(offset)
                    var section: SpliceInfoSection?
                    var encoded: String?
                    if case .binary(let bytes) = event.content {
                        section = try? SpliceInfoSection(bytes: bytes)
                        encoded = Data(bytes).base64EncodedString()
                    }
                    var insertDuration: Double?
                    if case .spliceInsert(let insert)? = section?.command {
                        guard insert.isOutOfNetwork, !insert.isCancelled else { continue }
                        insertDuration = insert.breakDuration?.seconds
                    }
                    let seconds = event.duration.map { Double($0) / timescale } ?? insertDuration
                    let duration: Duration? = seconds.flatMap { $0.isFinite && $0 > 0 && $0 < 1e9 ? .seconds($0) : nil }
                        ?? (start == period.start ? period.duration : nil)
                    guard let duration, duration > .zero else { continue }
                    breaks.append(SignalledBreak(start: start, duration: duration, scte35: encoded))
                }
            }
        }
        return breaks
    }

    /// Marks each signalled break on the playlist's segments (`starts`: each one's MPD time): `EXT-X-CUE-OUT` on
    /// the segment where it starts, `EXT-X-CUE-IN` on the first that starts at or after its end.
    func markAdBreaks(in playlist: inout MediaPlaylist, starts: [Duration]) {
        guard let first = starts.first, let last = starts.last, let lastSegment = playlist.segments.last else { return }
        let end = last + .seconds(lastSegment.duration)
        for signalled in breaks + inbandBreaks where signalled.start < end && signalled.start + signalled.duration > first {
            if let index = starts.lastIndex(atOrBefore: signalled.start), signalled.start >= first {
                playlist.segments[index].tags.cueOut = CueOut(duration: MediaTime(signalled.duration),
                                                              scte35: signalled.scte35)
            }
            let breakEnd = signalled.start + signalled.duration
            let after = (starts.lastIndex(atOrBefore: breakEnd).map { starts[$0] == breakEnd ? $0 : $0 + 1 }) ?? 0
            if after < starts.count, starts[after] >= breakEnd, after > 0 || signalled.start < first {
                playlist.segments[after].tags.isCueIn = true
            }
        }
    }

    /// How many breaks signalled in segments are kept (the oldest are forgotten first).
    static let maximumInbandBreaks = 64

    /// Whether a representation declares SCTE-35 events carried in its segments (`InbandEventStream`): an engine
    /// then reads the `emsg` boxes of the segments it fetches (``noteInbandEvents(_:segmentStart:)``).
    static func declaresInbandSCTE35(_ presentation: ResolvedPresentation) -> Bool {
        presentation.periods.contains { period in
            period.adaptationSets.contains { set in
                set.representations.contains { representation in
                    representation.attributes.inbandEventStreams.contains { $0.schemeIdURI.hasPrefix("urn:scte:scte35:") }
                }
            }
        }
    }

    /// Notes the SCTE-35 events of a segment's `emsg` boxes (the segment starting at `segmentStart`, MPD time) as
    /// breaks, marked on the playlists made from now on; returns whether one is new. A version 0 event is placed
    /// from the segment's start; a version 1 event on its period's timeline (less the presentation time offset). A
    /// `splice_insert` opens a break when it leaves the network (its duration the event's, else the splice's); a
    /// `time_signal` when the event has a duration; anything else, none.
    public mutating func noteInbandEvents(_ messages: [EventMessage], segmentStart: Duration) -> Bool {
        var added = false
        for message in messages where message.schemeIdURI.hasPrefix("urn:scte:scte35:") {
            let timescale = Double(message.timescale)
            let start: Duration
            switch message.time {
            case .delta(let ticks):
                start = segmentStart + .seconds(Double(ticks) / timescale)
            case .absolute(let ticks):
                guard let period = presentation.period(at: segmentStart) else { continue }
                let offset = DASHLadder.mainSet(of: ladder.kind, in: period)?.representations.first.map { representation in
                    let addressing = representation.segments.addressing
                    return addressing.timescale.duration(ofTicks: addressing.presentationTimeOffset)
                } ?? .zero
                let seconds = Double(ticks) / timescale
                guard seconds.isFinite, seconds < 1e12 else { continue }
                start = period.start + .seconds(seconds) - offset
            }
            var duration = message.duration.map { Duration.seconds(Double($0) / timescale) }
            switch (try? SpliceInfoSection(bytes: message.messageData))?.command {
            case .spliceInsert(let insert)?:
                guard insert.isOutOfNetwork, !insert.isCancelled else { continue }
                duration = duration ?? insert.breakDuration.map { .seconds($0.seconds) }
            case .timeSignal?: break
            default: continue
            }
            guard let duration, duration > .zero else { continue }
            let signalled = SignalledBreak(start: start, duration: duration,
                                           scte35: Data(message.messageData).base64EncodedString())
            guard !inbandBreaks.contains(signalled) else { continue }
            inbandBreaks.append(signalled)
            if inbandBreaks.count > Self.maximumInbandBreaks { inbandBreaks.removeFirst() }
            added = true
        }
        return added
    }
}
