import Foundation
import PlaytraceCore
import PlaytraceDASH

/// SVTA2053 ad creative signaling in an MPD: each `EventStream` of an ad-ID or ad-creative signaling scheme is a
/// source of breaks, each `Event` the JSON envelope ``AdCreativeSignalingDecoder`` reads (its text, as Shaka reads
/// it; `@messageData` in base64 too), dated where the MPD places it: `MPD@availabilityStartTime` + the period's
/// start + (`@presentationTime` − `@presentationTimeOffset`) / `@timescale`.
///
/// The schemes are SVTA's and the `urn:sva:` spelling MediaTailor writes (`EventScheme.isAdCreativeSignaling`). An MPD without `availabilityStartTime` places nothing on the program-date-time
/// timeline: that is a problem, and no break.
struct DASHSignalingReader {
    let decoder: AdCreativeSignalingDecoder

    /// The breaks an MPD signals, on the program-date-time timeline.
    func metadata(of presentation: ResolvedPresentation) -> AdMetadata {
        var pods: [AdPod] = []
        var problems: [AdMetadataProblem] = []
        let limits = decoder.limits
        let streams = presentation.periods.flatMap { period in
            period.eventStreams.filter(\.isAdCreativeSignaling).map { (period, $0) }
        }
        guard let anchor = presentation.availabilityStartTime else {
            if !streams.isEmpty {
                problems.append(AdMetadataProblem(path: "MPD", message: "the MPD has no availabilityStartTime: its "
                                                    + "signaling cannot be placed on the program-date-time timeline"))
            }
            return AdMetadata(pods: [], timeline: .programDateTime, problems: problems)
        }
        reading: for (period, stream) in streams {
            let timescale = Double(max(1, stream.timescale))
            for (index, event) in stream.events.enumerated() {
                let id = "\(period.id)/\(event.id ?? String(index + 1))"
                let ticks = Double(event.presentationTime) - Double(stream.presentationTimeOffset)
                let date = anchor + period.start + .saturating(seconds: ticks / timescale)
                let decoded: (pods: [AdPod], problems: [AdMetadataProblem])
                switch event.content {
                case .text(let text):
                    decoded = decoder.decode(json: Data(text.utf8), id: id, date: date)
                case .binary(let bytes):
                    decoded = decoder.decode(json: Data(bytes), id: id, date: date)
                case .none, .scte35XML:
                    decoded = ([], [AdMetadataProblem(path: id, message: "the event carries no signaling")])
                }
                pods += decoded.pods
                problems += decoded.problems
                if pods.count > limits.maximumPods { break reading }
            }
        }
        return AdMetadata(pods: Array(pods.sorted { $0.startTime < $1.startTime }.prefix(limits.maximumPods)),
                          dataRange: dataRange(of: presentation, anchor: anchor), timeline: .programDateTime,
                          problems: problems)
    }

    /// What the MPD covers: from its first period's start to its end (on demand) or its publish time (live).
    private func dataRange(of presentation: ResolvedPresentation, anchor: StreamDate) -> DataRange? {
        guard let first = presentation.periods.first else { return nil }
        let end: StreamDate
        if presentation.type == .static, let duration = presentation.duration {
            end = anchor + duration
        } else if let published = presentation.written.publishTime {
            end = published
        } else {
            return nil
        }
        return DataRange(start: AdTime(anchor + first.start), end: AdTime(end))
    }
}
