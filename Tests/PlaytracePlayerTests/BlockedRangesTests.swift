import PlaytraceCore
import Testing
@testable import PlaytracePlayer

@Suite("Blocked ranges and metadata")
struct BlockedRangesTests {
    static func range(_ start: Double, _ end: Double) -> MediaTimeRange {
        MediaTimeRange(start: MediaTime(seconds: start), end: MediaTime(seconds: end))
    }

    @Test func flattensOverlappingNestedTouchingAndUnsortedRanges() {
        let blocked = BlockedRanges([
            Self.range(50, 60), Self.range(10, 20), Self.range(15, 30), Self.range(12, 14), Self.range(30, 35),
            Self.range(70, 70), Self.range(80, 90),
        ])
        #expect(blocked.ranges == [Self.range(10, 35), Self.range(50, 60), Self.range(80, 90)])
        #expect(BlockedRanges([]).isEmpty && BlockedRanges([Self.range(5, 5)]).isEmpty)
    }

    @Test func aStartInsideABlockedRangeMovesPastIt() {
        let blocked = BlockedRanges([Self.range(0, 10), Self.range(20, 30)])
        #expect(blocked.startPosition(0) == 10)
        #expect(blocked.startPosition(25) == 30)
        #expect(blocked.startPosition(15) == 15)
        #expect(blocked.startPosition(30) == 30, "ranges are half-open")
    }

    @Test func seeksIntoABlockedRangeLandAtItsEndForwardAndJustBeforeItBackward() {
        let blocked = BlockedRanges([Self.range(0, 5), Self.range(20, 30)])
        #expect(blocked.seekTarget(from: 10, to: 25) == 30, "forward: past the range")
        #expect(blocked.seekTarget(from: 40, to: 25) == MediaTime(seconds: 20) - BlockedRanges.backwardMargin,
                "backward: just before the range")
        #expect(blocked.seekTarget(from: 10, to: 2) == 5, "backward into a range at the start: nothing before it")
        #expect(blocked.seekTarget(from: 10, to: 15) == 15, "outside any range: unchanged")
    }

    @Test func nextBlockedRangeAndEndCoverage() {
        let blocked = BlockedRanges([Self.range(20, 30), Self.range(50, 60)])
        #expect(blocked.next(after: 0) == Self.range(20, 30))
        #expect(blocked.next(after: 20) == Self.range(20, 30))
        #expect(blocked.next(after: 25) == Self.range(50, 60))
        #expect(blocked.next(after: 55) == nil)
        #expect(blocked.coversEnd(of: 60) && !blocked.coversEnd(of: 61))
    }

    @Test func metadataExposesBlockedRangesAndChapters() {
        let metadata = PlayerMetadata(
            title: "Show", chapters: [Chapter(id: "a", title: "A", timeRange: Self.range(0, 10)),
                                      Chapter(id: "b", title: "B", timeRange: Self.range(10, 20))],
            timeRanges: [TimeRange(kind: .credits(.opening), range: Self.range(0, 5)),
                         TimeRange(kind: .blocked, range: Self.range(12, 14)),
                         TimeRange(kind: .blocked, range: Self.range(13, 16)),
                         TimeRange(kind: .custom("recap"), range: Self.range(16, 18))])
        #expect(metadata.blockedRanges.ranges == [Self.range(12, 16)])
        #expect(metadata.chapter(at: 10)?.id == "b")
        #expect(metadata.chapter(at: 25) == nil)
        #expect(PlayerMetadata.empty.blockedRanges.isEmpty)
    }
}
