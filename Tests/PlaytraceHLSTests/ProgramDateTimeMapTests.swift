import PlaytraceCore
import Testing
@testable import PlaytraceHLS

@Suite("Program-date-time mapping")
struct ProgramDateTimeMapTests {
    static let playlist = try! PlaylistParser().parseMediaPlaylist("""
        #EXTM3U
        #EXT-X-TARGETDURATION:6
        #EXT-X-PROGRAM-DATE-TIME:2026-11-21T10:00:00.000Z
        #EXTINF:6,
        a.ts
        #EXTINF:4,
        b.ts
        #EXT-X-DISCONTINUITY
        #EXT-X-PROGRAM-DATE-TIME:2026-11-21T12:00:00.000Z
        #EXTINF:6,
        c.ts
        #EXT-X-DISCONTINUITY
        #EXTINF:6,
        d.ts
        #EXT-X-PROGRAM-DATE-TIME:2026-11-21T09:00:00.000Z
        #EXTINF:6,
        e.ts
        """)

    static func date(_ text: String) -> StreamDate { try! StreamDate(iso8601: text) }

    @Test func segmentToDateAndBack() {
        let map = ProgramDateTimeMap(Self.playlist)
        #expect(map.date(ofSegment: 0) == Self.date("2026-11-21T10:00:00Z"))
        #expect(map.date(ofSegment: 1) == Self.date("2026-11-21T10:00:06Z"), "extrapolated from the previous segment")
        #expect(map.date(ofSegment: 2) == Self.date("2026-11-21T12:00:00Z"), "a new date after a discontinuity")
        #expect(map.date(ofSegment: 3) == nil, "a discontinuity without a date breaks the chain")
        #expect(map.date(ofSegment: 4) == Self.date("2026-11-21T09:00:00Z"))
        #expect(map.segmentIndex(at: Self.date("2026-11-21T10:00:07Z")) == 1)
        #expect(map.segmentIndex(at: Self.date("2026-11-21T12:00:05.999Z")) == 2)
        #expect(map.segmentIndex(at: Self.date("2026-11-21T11:00:00Z")) == nil)
    }

    @Test func playheadToDateAndBackAcrossDiscontinuities() throws {
        let map = ProgramDateTimeMap(Self.playlist)
        #expect(map.date(at: 7.5) == Self.date("2026-11-21T10:00:07.5Z"))
        #expect(map.date(at: 13) == Self.date("2026-11-21T12:00:03Z"))
        #expect(map.date(at: 17) == nil)
        #expect(map.date(at: 25) == Self.date("2026-11-21T09:00:03Z"))
        #expect(map.date(at: 30) == Self.date("2026-11-21T09:00:08Z"), "extrapolated past the end")
        for time in [0.0, 3.25, 7.5, 10, 13, 22, 27.9] {
            let date = try #require(map.date(at: MediaTime(seconds: time)))
            let back = try #require(map.time(at: date))
            #expect(abs(back.seconds - time) < 1e-6)
        }
        #expect(map.time(at: Self.date("2026-11-21T10:00:10Z")) == 10, "the end of the last dated segment of a run")
        #expect(map.time(at: Self.date("2026-11-20T10:00:00Z")) == nil)
        #expect(map.dateRange == Self.date("2026-11-21T09:00:00Z")...Self.date("2026-11-21T12:00:06Z"))
    }

    @Test func emptyWithoutDates() throws {
        let map = ProgramDateTimeMap(try PlaylistParser().parseMediaPlaylist("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na.ts"))
        #expect(map.isEmpty && map.date(at: 1) == nil && map.dateRange == nil)
    }
}
