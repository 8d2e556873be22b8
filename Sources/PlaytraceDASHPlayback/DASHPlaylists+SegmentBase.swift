public import Foundation
public import PlaytraceDASH

/// Representations addressed by `SegmentBase`: one file, divided into segments by the index (`sidx`) its
/// `@indexRange` names. The engine reads a track's indexes before its first playlist (``indexRequests(for:)``,
/// ``applyIndex(_:for:)``); until then, or when an index cannot be read, the file plays as one segment.
extension DASHPlaylists {
    /// An index to read: where it is, and whose it is.
    public struct IndexRequest: Sendable, Hashable {
        /// The representation's place in the presentation: its period, adaptation set and own index.
        public var period: Int
        public var adaptationSet: Int
        public var representation: Int
        /// The file, at each `BaseURL` location, the first to ask first.
        public var urls: [URL]
        /// The index's bytes in the file.
        public var range: ByteRange
    }

    /// The indexes the track's playlist needs that were not read (nor failed: those are not asked again): in each
    /// period, those of the representation the track plays and of the one that times it.
    public func indexRequests(for track: DASHTrack) -> [IndexRequest] {
        guard let (reference, own, _) = representations(of: track) else { return [] }
        var requests: [IndexRequest] = []
        for (periodIndex, period) in presentation.periods.enumerated() {
            for representation in [reference(period), own(period)].compactMap({ $0 }) {
                guard case .single(let range?, let media) = representation.segments.addressing.scheme,
                      let place = Self.place(of: representation, in: period),
                      !unreadableIndexes.contains(IndexKey(period: periodIndex, set: place.set, representation: place.representation))
                else { continue }
                let request = IndexRequest(period: periodIndex, adaptationSet: place.set, representation: place.representation,
                                           urls: SegmentReference(number: 0, time: 0, start: .zero, duration: .zero,
                                                                  path: media?.url).urls(at: representation.baseURLs),
                                           range: range)
                if !requests.contains(request) { requests.append(request) }
            }
        }
        return requests
    }

    /// Takes the bytes of an index range: from now on the representation is addressed by the subsegments it lists.
    /// Returns `false`, with a problem, when they are no index the representation can use: it then plays as one
    /// segment, its whole file, and its index is not asked for again.
    @discardableResult
    public mutating func applyIndex(_ bytes: [UInt8], for request: IndexRequest) -> Bool {
        guard presentation.periods.indices.contains(request.period),
              presentation.periods[request.period].adaptationSets.indices.contains(request.adaptationSet),
              presentation.periods[request.period].adaptationSets[request.adaptationSet].representations.indices
                .contains(request.representation) else { return false }
        let period = presentation.periods[request.period]
        let representation = period.adaptationSets[request.adaptationSet].representations[request.representation]
        let segments = representation.segments
        do throws(SegmentIndexBox.ReadError) {
            let index = try SegmentIndexBox(bytes, fileOffset: request.range.first)
            guard let (addressing, problems) = segments.addressing.indexed(by: index, periodDuration: period.duration) else {
                throw SegmentIndexBox.ReadError("a subsegment has no duration")
            }
            for problem in problems { note(problem) }
            presentation.periods[request.period].adaptationSets[request.adaptationSet].representations[request.representation]
                .segments = SegmentIndex(addressing: addressing, periodStart: segments.periodStart, periodEnd: segments.periodEnd,
                                         representationID: segments.representationID, bandwidth: segments.bandwidth)
            return true
        } catch {
            indexFailed(request, reason: error.description)
            return false
        }
    }

    /// The index could not be fetched: the representation plays as one segment, its whole file.
    public mutating func indexFailed(_ request: IndexRequest, reason: String) {
        unreadableIndexes.insert(IndexKey(period: request.period, set: request.adaptationSet, representation: request.representation))
        let representation = presentation.periods[safe: request.period]?.adaptationSets[safe: request.adaptationSet]?
            .representations[safe: request.representation]
        note(MPDProblem(line: representation?.line ?? 0,
                        "the index (sidx, bytes \(request.range)) of representation \(representation?.id ?? "?") cannot be used: "
                            + "\(reason); its file plays as one segment"))
    }

    /// A representation's place in its period, found by its id and line.
    private static func place(of representation: ResolvedRepresentation, in period: ResolvedPeriod) -> (set: Int, representation: Int)? {
        for (setIndex, set) in period.adaptationSets.enumerated() {
            if let index = set.representations.firstIndex(where: { $0.id == representation.id && $0.line == representation.line }) {
                return (setIndex, index)
            }
        }
        return nil
    }
}

/// Where an index is, to remember one that could not be read.
struct IndexKey: Sendable, Hashable {
    var period: Int
    var set: Int
    var representation: Int
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
