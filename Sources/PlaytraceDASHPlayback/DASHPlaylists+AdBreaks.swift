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

    /// The largest SVTA2053 signaling read from an `emsg` (a break's JSON envelope is a few kilobytes).
    public static let maximumInbandSignalingBytes = 64 << 10

    /// How many breaks signalled in segments are kept (the oldest are forgotten first).
    static let maximumInbandBreaks = 64

    /// Whether a representation declares events carried in its segments that an engine reads (`InbandEventStream`
    /// of SCTE-35 or of SVTA2053 ad creative signaling): it then reads the `emsg` boxes of the segments it fetches
    /// (``noteInbandEvents(_:segmentStart:)``, ``inbandSignaling(_:segmentStart:)``).
    static func declaresInbandEvents(_ presentation: ResolvedPresentation) -> Bool {
        presentation.periods.contains { period in
            period.adaptationSets.contains { set in
                set.representations.contains { representation in
                    representation.attributes.inbandEventStreams.contains {
                        EventScheme.isSCTE35($0.schemeIdURI) || EventScheme.isAdCreativeSignaling($0.schemeIdURI)
                    }
                }
            }
        }
    }

    /// Where an `emsg` places its event on the MPD's timeline, the segment carrying it starting at `segmentStart`: a
    /// version 0 event from the segment's start; a version 1 event on its period's timeline (less the presentation
    /// time offset). `nil` when it cannot be placed.
    private func start(of message: EventMessage, segmentStart: Duration) -> Duration? {
        let timescale = Double(message.timescale)
        switch message.time {
        case .delta(let ticks):
            return segmentStart + .seconds(Double(ticks) / timescale)
        case .absolute(let ticks):
            guard let period = presentation.period(at: segmentStart) else { return nil }
            let offset = DASHLadder.mainSet(of: ladder.kind, in: period)?.representations.first.map { representation in
                let addressing = representation.segments.addressing
                return addressing.timescale.duration(ofTicks: addressing.presentationTimeOffset)
            } ?? .zero
            let seconds = Double(ticks) / timescale
            guard seconds.isFinite, seconds < 1e12 else { return nil }
            return period.start + .seconds(seconds) - offset
        }
    }

    /// An SVTA2053 ad creative signaling event carried in a segment (an `emsg` of an ad-ID or ad-creative
    /// signaling scheme): its JSON envelope, for an ad session to read, placed on the MPD's timeline.
    public struct InbandSignaling: Sendable, Hashable {
        /// The event's identity, `emsg-<value>-<id>` (`emsg-<id>` without a value): a message repeated in later
        /// segments is the same event.
        public var id: String
        /// Where the event starts, MPD time.
        public var start: Duration
        /// Its duration.
        public var duration: Duration
        /// The JSON envelope, as the message carries it.
        public var json: String

        public init(id: String, start: Duration, duration: Duration, json: String) {
            self.id = id
            self.start = start
            self.duration = duration
            self.json = json
        }
    }

    /// The SVTA2053 ad creative signaling events of a segment's `emsg` boxes (the segment starting at
    /// `segmentStart`, MPD time), placed as ``noteInbandEvents(_:segmentStart:)`` places SCTE-35 ones. Left out: a
    /// message whose data is not UTF-8 or is larger than ``maximumInbandSignalingBytes``, and one without a duration
    /// (a break that could never be known to have ended would be kept for the whole session).
    public func inbandSignaling(_ messages: [EventMessage], segmentStart: Duration) -> [InbandSignaling] {
        messages.compactMap { message in
            guard EventScheme.isAdCreativeSignaling(message.schemeIdURI), let ticks = message.duration,
                  message.messageData.count <= Self.maximumInbandSignalingBytes,
                  let start = start(of: message, segmentStart: segmentStart),
                  let json = String(validating: message.messageData, as: UTF8.self) else { return nil }
            let duration = Duration.seconds(Double(ticks) / Double(message.timescale))
            let value = message.value.prefix(64)
            return InbandSignaling(id: value.isEmpty ? "emsg-\(message.id)" : "emsg-\(value)-\(message.id)", start: start,
                                   duration: duration, json: json)
        }
    }

    /// Notes the SCTE-35 events of a segment's `emsg` boxes (the segment starting at `segmentStart`, MPD time) as
    /// breaks, marked on the playlists made from now on; returns whether one is new. A version 0 event is placed
    /// from the segment's start; a version 1 event on its period's timeline (less the presentation time offset). A
    /// `splice_insert` opens a break when it leaves the network (its duration the event's, else the splice's); a
    /// `time_signal` when the event has a duration; anything else, none.
    public mutating func noteInbandEvents(_ messages: [EventMessage], segmentStart: Duration) -> Bool {
        var added = false
        for message in messages where EventScheme.isSCTE35(message.schemeIdURI) {
            guard let start = start(of: message, segmentStart: segmentStart) else { continue }
            let timescale = Double(message.timescale)
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
