// libFuzzer target for PlaytraceDASH's ISO BMFF reading (built by scripts/fuzz): any bytes walk to boxes that tile
// what was read and lie within it, nested walks of container boxes stay inside their parent, every emsg and prft
// either reads or is refused, never read past its box, a segment's producer time and an initialization segment's
// timescale read or refused, and a segment index's subsegments follow one another.
import PlaytraceCore
import PlaytraceDASH

// Invariant (what makes this file's pointer use sound): libFuzzer lends `size` bytes at `data` for the call; they are copied at once.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzISOBMFF(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    walk(bytes, range: bytes.indices, depth: 0)
    let (messages, problems) = EventMessage.messages(inSegment: bytes)
    precondition(messages.count + problems.count <= BoxWalk.maximumBoxes + 1, "more results than boxes")
    for message in messages {
        precondition(message.messageData.count <= size && message.timescale > 0, "an emsg read past its box")
    }
    // A segment's producer time, and an initialization segment's timescale: read or refused, dates finite.
    if let producer = SegmentProducerTime(segment: bytes) {
        for timescale in [nil, 1, 90_000, UInt32.max] as [UInt32?] {
            if let date = producer.producerDate(timescale: timescale) {
                precondition(date.secondsSince1970.isFinite, "a producer date that is not a number")
            }
        }
    }
    if let timescale = InitializationSegment.trackTimescale(bytes) { precondition(timescale > 0, "a zero timescale") }
    // A segment index read from any offset: its subsegments follow each other from past the box, none empty.
    if let index = try? SegmentIndexBox(bytes, fileOffset: Int64(size % 7_919)) {
        precondition(index.timescale > 0 && index.references.count <= 65_535, "an index that cannot be")
        for (reference, next) in zip(index.references, index.references.dropFirst()) {
            precondition(reference.range.last >= reference.range.first && next.range.first == reference.range.last + 1,
                         "subsegments that do not follow each other")
        }
    }
    return 0
}

private func walk(_ bytes: [UInt8], range: Range<Int>, depth: Int) {
    let found = BoxWalk(bytes, range: range)
    var end = range.lowerBound
    for box in found.boxes {
        precondition(box.offset == end && box.size >= box.headerSize && box.offset + box.size <= range.upperBound,
                     "boxes that do not tile their parent")
        end = box.offset + box.size
        if depth < 4, ["moov", "trak", "moof", "traf", "mdia", "minf", "stbl"].contains(box.type) {
            walk(bytes, range: box.payloadRange, depth: depth + 1)
        }
        if box.type == "prft" { _ = ProducerReferenceTimeBox(box.payload(in: bytes)) }
        if box.type == "emsg" { _ = try? EventMessage(box.payload(in: bytes)) }
    }
}
