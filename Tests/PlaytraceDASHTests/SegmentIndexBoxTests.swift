import Foundation
import PlaytraceCore
import PlaytraceDASH
import Testing

/// `SegmentBase`'s segment index (`sidx`): subsegments as byte ranges of the file, from the end of the box on.
@Suite("Segment index (sidx): a SegmentBase file's subsegments")
struct SegmentIndexBoxTests {
    typealias Bytes = ISOBMFFTests

    /// A sidx of `version`, its references (size, duration, whether it points at another index).
    static func sidx(version: UInt8, timescale: UInt32 = 12_800, earliest: UInt64 = 0, firstOffset: UInt64 = 0,
                     references: [(size: UInt32, duration: UInt32, isIndex: Bool)]) -> [UInt8] {
        var payload: [UInt8] = [version, 0, 0, 0] + Bytes.be32(1) + Bytes.be32(timescale)
        payload += version == 1 ? Bytes.be64(earliest) + Bytes.be64(firstOffset)
            : Bytes.be32(UInt32(earliest)) + Bytes.be32(UInt32(firstOffset))
        payload += [0, 0] + [UInt8(references.count >> 8), UInt8(references.count & 0xFF)]
        for reference in references {
            payload += Bytes.be32(reference.size | (reference.isIndex ? 0x8000_0000 : 0)) + Bytes.be32(reference.duration)
                + Bytes.be32(0x9000_0000)
        }
        return Bytes.box("sidx", payload)
    }

    @Test("Subsegments follow one another from past the box, in the file's offsets, of either version", arguments: [UInt8(0), 1])
    func reads(version: UInt8) throws {
        let bytes = Self.sidx(version: version, earliest: 1_024, firstOffset: 10,
                              references: [(1_000, 25_600, false), (2_000, 25_600, false), (500, 12_800, false)])
        let index = try SegmentIndexBox(bytes, fileOffset: 796)
        let start = Int64(796 + bytes.count + 10)
        #expect(index.timescale == 12_800 && index.earliestPresentationTime == 1_024)
        #expect(index.references.map(\.range) == [ByteRange(first: start, last: start + 999),
                                                  ByteRange(first: start + 1_000, last: start + 2_999),
                                                  ByteRange(first: start + 3_000, last: start + 3_499)])
        #expect(index.references.map(\.duration) == [25_600, 25_600, 12_800])
        #expect(index.references.allSatisfy { $0.startsWithSAP })
    }

    @Test("Refused, with a reason: no sidx, a hierarchy, a box cut short, no subsegment, offsets past 2^63, a zero timescale")
    func refuses() {
        let cases: [([UInt8], Int64)] = [
            (Bytes.box("moof", [1, 2, 3]), 0),
            (Self.sidx(version: 0, references: [(100, 1, true)]), 0),
            (Array(Self.sidx(version: 1, references: [(100, 1, false), (100, 1, false)]).dropLast(4)), 0),
            (Self.sidx(version: 0, references: []), 0),
            (Self.sidx(version: 1, firstOffset: UInt64(Int64.max), references: [(100, 1, false)]), 10),
            (Self.sidx(version: 0, timescale: 0, references: [(100, 1, false)]), 0),
            (Self.sidx(version: 0, references: [(0, 1, false)]), 0),
        ]
        for (bytes, offset) in cases {
            #expect(throws: SegmentIndexBox.ReadError.self) { try SegmentIndexBox(bytes, fileOffset: offset) }
        }
    }

    @Test("A SegmentBase representation, indexed: a list of the file's ranges timed from the index, its init kept")
    func addressing() throws {
        let text = """
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT5S">
              <Period id="0"><AdaptationSet mimeType="video/mp4"><Representation id="v" bandwidth="1">
                <BaseURL>video.mp4</BaseURL>
                <SegmentBase timescale="12800" indexRange="796-907"/>
              </Representation></AdaptationSet></Period>
            </MPD>
            """
        let url = try #require(URL(string: "https://origin.example/od/manifest.mpd"))
        let presentation = ResolvedPresentation(try MPDParser().parse(Data(text.utf8)), url: url)
        let representation = try #require(presentation.periods.first?.adaptationSets.first?.representations.first)
        let index = try SegmentIndexBox(Self.sidx(version: 1, references: [(1_000, 25_600, false), (1_000, 25_600, false),
                                                                           (400, 12_800, false)]), fileOffset: 796)
        let (indexed, problems) = try #require(representation.segments.addressing.indexed(by: index, periodDuration: .seconds(5)))
        #expect(problems.isEmpty)
        let segments = SegmentIndex(addressing: indexed, periodStart: .zero, periodEnd: .seconds(5), representationID: "v",
                                    bandwidth: 1)
        #expect(segments.count == 3)
        let last = try #require(segments.segment(at: 2))
        #expect(last.start == .seconds(4) && last.duration == .seconds(1) && last.byteRange == index.references[2].range)
        #expect(last.urls(at: representation.baseURLs).first?.absoluteString == "https://origin.example/od/video.mp4")
        // No Initialization written: the bytes before the index.
        #expect(segments.initialization?.byteRange == ByteRange(first: 0, last: 795))
    }
}
