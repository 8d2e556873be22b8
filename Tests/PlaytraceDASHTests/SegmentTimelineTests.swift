import PlaytraceDASH
import Testing

@Suite("SegmentTimeline: runs, never expanded; gaps, overlaps and negative repeats")
struct SegmentTimelineTests {
    typealias Entry = SegmentTimeline.Entry

    @Test("t, d and r give runs; a segment is found by index and by time")
    func runs() throws {
        let timeline = SegmentTimeline(entries: [
            Entry(time: 900, duration: 100, repeatCount: 2),   // 900, 1000, 1100
            Entry(duration: 50),                                // 1200
            Entry(duration: 100, repeatCount: 1),               // 1250, 1350
        ])
        #expect(timeline.problems.isEmpty)
        #expect(timeline.segmentCount == 6)
        #expect(timeline.segment(at: 0) == .init(index: 0, start: 900, duration: 100))
        #expect(timeline.segment(at: 3) == .init(index: 3, start: 1200, duration: 50))
        #expect(timeline.segment(at: 5) == .init(index: 5, start: 1350, duration: 100))
        #expect(timeline.segment(at: 6) == nil)
        #expect(timeline.segment(containing: 1249)?.index == 3)
        #expect(timeline.segment(containing: 1250)?.index == 4)
        #expect(timeline.segment(containing: 899) == nil)
        #expect(timeline.segment(containing: 1450) == nil)
    }

    @Test("A year of one-second segments is one run, and its last segment is found at once")
    func huge() throws {
        let year: Int64 = 365 * 86_400
        let timeline = SegmentTimeline(entries: [Entry(time: 0, duration: 90_000, repeatCount: year - 1)])
        #expect(timeline.runs.count == 1 && timeline.segmentCount == year)
        #expect(timeline.segment(at: year - 1)?.start == (year - 1) * 90_000)
        #expect(timeline.segment(containing: year * 90_000 - 1)?.index == year - 1)
    }

    @Test("A negative r repeats to the next S@t, else to the period's end, else without end")
    func negativeRepeat() throws {
        let toNext = SegmentTimeline(entries: [Entry(time: 0, duration: 10, repeatCount: -1), Entry(time: 45, duration: 5)])
        // 0, 10, 20, 30, 40 (the last shortened to 5 to meet 45), then 45.
        #expect(toNext.segmentCount == 6)
        #expect(toNext.segment(at: 4) == .init(index: 4, start: 40, duration: 5))
        #expect(toNext.segment(at: 5) == .init(index: 5, start: 45, duration: 5))

        let toEnd = SegmentTimeline(entries: [Entry(time: 0, duration: 10, repeatCount: -1)], end: 95)
        #expect(toEnd.segmentCount == 10)

        let open = SegmentTimeline(entries: [Entry(time: 100, duration: 10, repeatCount: -1)])
        #expect(open.segmentCount == nil)
        let far = try #require(open.segment(at: 1_000_000))
        #expect(far.start == 10_000_100 && far.duration == 10)
        #expect(open.segment(containing: 1_000_005)?.index == 99_990)
    }

    @Test("Gaps stretch and overlaps shorten the segment before; bad S are skipped, each listed with its line")
    func lenient() throws {
        let gap = SegmentTimeline(entries: [Entry(time: 0, duration: 10, repeatCount: 2), Entry(time: 35, duration: 10, line: 7)])
        #expect(gap.segment(at: 2) == .init(index: 2, start: 20, duration: 15))
        #expect(gap.segment(at: 3)?.start == 35)
        #expect(gap.problems.map(\.line) == [7])

        let overlap = SegmentTimeline(entries: [Entry(time: 0, duration: 10, repeatCount: 2), Entry(time: 15, duration: 10)])
        // 0, 10 (shortened to 5), then 15: the segment at 20 is gone.
        #expect(overlap.segmentCount == 3)
        #expect(overlap.segment(at: 1) == .init(index: 1, start: 10, duration: 5))
        #expect(overlap.segment(at: 2) == .init(index: 2, start: 15, duration: 10))

        let bad = SegmentTimeline(entries: [Entry(time: 0, duration: nil, line: 3), Entry(time: 0, duration: 0, line: 4),
                                            Entry(time: 0, duration: 10, line: 5)])
        #expect(bad.segmentCount == 1)
        #expect(bad.problems.map(\.line) == [3, 4])
    }

    @Test("Nothing past the period's end, and no sum past Int64.max")
    func bounds() throws {
        let capped = SegmentTimeline(entries: [Entry(time: 0, duration: 10, repeatCount: 99)], end: 55)
        #expect(capped.segmentCount == 6 && capped.problems.count == 1)
        let huge = SegmentTimeline(entries: [Entry(time: Int64.max - 25, duration: 10, repeatCount: Int64.max)])
        #expect(huge.segmentCount == 2)
        #expect(huge.segment(at: 1)?.start == Int64.max - 15)
        #expect(huge.segment(at: 2) == nil)
    }
}
