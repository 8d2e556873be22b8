public import PlaytraceCore

/// What a fragmented MP4 media segment says of its producer's wall clock: its first `prft` box
/// (``ProducerReferenceTimeBox``) and the decode time of its first track fragment (`moof/traf/tfdt`), both in the
/// track's timescale. With the segment's place on the stream's timeline, it gives how far the producer's clock is
/// from the stream's dates (Harmonic's `prftStartTime` counts on the producer's clock).
///
/// ```swift
/// if let reading = SegmentProducerTime(segment: bytes), let producerDate = reading.producerDate(timescale: 90_000) {
///     print(producerDate)   // when the producer made the segment's first sample
/// }
/// ```
public struct SegmentProducerTime: Sendable, Hashable {
    public var reference: ProducerReferenceTimeBox
    /// The `tfdt` of the segment's first track fragment.
    public var decodeTime: UInt64

    /// Reads a segment's top-level boxes; `nil` without a readable `prft` or `tfdt`.
    public init?(segment bytes: [UInt8]) {
        var reference: ProducerReferenceTimeBox?
        var decodeTime: UInt64?
        for box in BoxWalk(bytes).boxes {
            if box.type == "prft", reference == nil {
                reference = ProducerReferenceTimeBox(box.payload(in: bytes))
            } else if box.type == "moof", decodeTime == nil {
                decodeTime = Self.firstDecodeTime(in: box, of: bytes)
            }
            if reference != nil, decodeTime != nil { break }
        }
        guard let reference, let decodeTime else { return nil }
        self.reference = reference
        self.decodeTime = decodeTime
    }

    /// The producer's date of the segment's first sample: the reference's date, moved by the media time between the
    /// reference and that sample. Without `timescale` (the track's, from its `mdhd`) only a reference at that very
    /// sample gives one.
    public func producerDate(timescale: UInt32?) -> StreamDate? {
        guard reference.mediaTime != decodeTime else { return reference.date }
        guard let timescale, timescale > 0 else { return nil }
        let ticks = Double(decodeTime) - Double(reference.mediaTime)
        return reference.date + MediaTime(seconds: ticks / Double(timescale))
    }

    /// The decode time of a media segment's first track fragment (the `tfdt` in its first `moof/traf`); `nil` when
    /// it has none.
    public static func decodeTime(ofSegment bytes: [UInt8]) -> UInt64? {
        BoxWalk(bytes).boxes.first { $0.type == "moof" }.flatMap { firstDecodeTime(in: $0, of: bytes) }
    }

    /// The decode time in the first `traf/tfdt` of a `moof` (version 1: 64 bits; 0: 32).
    private static func firstDecodeTime(in moof: BoxWalk.Box, of bytes: [UInt8]) -> UInt64? {
        guard let traf = BoxWalk(bytes, range: moof.payloadRange).boxes.first(where: { $0.type == "traf" }),
              let tfdt = BoxWalk(bytes, range: traf.payloadRange).boxes.first(where: { $0.type == "tfdt" }) else { return nil }
        let start = tfdt.payloadRange.lowerBound
        guard tfdt.payloadRange.count >= 8, let version = bytes[start...].first else { return nil }
        if version == 1 {
            guard tfdt.payloadRange.count >= 12 else { return nil }
            return BoxWalk.uint64(bytes, start + 4)
        }
        return BoxWalk.uint32(bytes, start + 4).map(UInt64.init)
    }
}

/// An initialization segment's facts a client without a decoder needs.
public enum InitializationSegment {
    /// The media timescale the segment declares for its first track (`moov/trak/mdia/mdhd`), `nil` when it declares
    /// none (or a zero one).
    public static func trackTimescale(_ bytes: [UInt8]) -> UInt32? {
        var range: Range<Int>? = nil
        var found: BoxWalk.Box?
        for type in ["moov", "trak", "mdia", "mdhd"] {
            guard let next = BoxWalk(bytes, range: range).boxes.first(where: { $0.type == type }) else { return nil }
            found = next
            range = next.payloadRange
        }
        guard let mdhd = found, let version = bytes[mdhd.payloadRange].first else { return nil }
        // After the version and flags: creation and modification times (32 or 64 bits each), then the timescale.
        let offset = mdhd.payloadRange.lowerBound + (version == 1 ? 20 : 12)
        guard offset + 4 <= mdhd.payloadRange.upperBound, let timescale = BoxWalk.uint32(bytes, offset), timescale > 0
        else { return nil }
        return timescale
    }
}
