import Foundation
import PlaytraceCore
import PlaytraceDASH
import PlaytraceHLS

extension DASHPlaylists {
    /// An ad break an MPD's `EventStream` signals with SCTE-35, on the MPD's timeline.
    struct SignalledBreak {
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
        for signalled in breaks where signalled.start < end && signalled.start + signalled.duration > first {
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
}
