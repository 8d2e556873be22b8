@testable import PlaytraceHeadless
import PlaytraceCore
import PlaytracePlayer
import Testing

@Suite("The headless engine's state types: forward buffer, progress boundaries")
struct EngineStateTests {
    private func segment(_ sequence: Int, _ start: MediaTime, _ duration: MediaTime) -> TimelineSegment {
        TimelineSegment(sequence: sequence, start: start, duration: duration, date: nil, isGap: false)
    }

    @Test("The forward buffer stays contiguous, knows what it holds, and evicts what was played")
    func forwardBuffer() {
        var buffer = ForwardBuffer()
        buffer.restart(at: 3)
        #expect(buffer.isEmpty && buffer.nextSequence == 3 && buffer.ahead(of: 12) == .zero)
        buffer.append(segment(3, 12, 4), variant: 0, switchReason: .initial, isLast: false)
        // A segment that overlaps the last one (another variant's rounding) starts where the buffer ends.
        buffer.append(segment(4, 15.9, 4), variant: 1, switchReason: nil, isLast: true)
        #expect(buffer.last?.start == 16 && buffer.last?.end == MediaTime(seconds: 19.9) && buffer.nextSequence == 5)
        #expect(buffer.isComplete && buffer.ahead(of: 13) == MediaTime(seconds: 19.9) - 13)
        #expect(buffer.holds(12) && buffer.holds(19) && !buffer.holds(MediaTime(seconds: 19.9)) && !buffer.holds(11))
        #expect(buffer.segment(at: 17)?.variant == 1 && buffer.segment(at: 30)?.variant == 0)
        buffer.evict(playedBefore: 16)
        #expect(buffer.first?.sequence == 4)
        buffer.evict(playedBefore: MediaTime(seconds: 19.9))
        #expect(buffer.first?.sequence == 4, "the last segment stays while the playhead is at its end")
        buffer.restart(at: 9)
        #expect(buffer.isEmpty && !buffer.isComplete && buffer.nextSequence == 9)
    }

    @Test("Progress boundaries: the next one after a position, by time or by date, on the primary or an interstitial")
    func boundaries() {
        var boundaries = ProgressBoundaries()
        let origin = StreamDate(secondsSince1970: 1_000)
        boundaries.set([.time(30), .time(10), .time(MediaTime(seconds: .nan)), .date(origin + MediaTime(seconds: 25)),
                        .interstitial(id: "ad", time: 5), .interstitial(id: "ad", time: 2)])
        #expect(boundaries.hasDates)
        #expect(boundaries.next(after: 0, date: nil) == 10)
        #expect(boundaries.next(after: 10, date: nil) == 30, "a boundary at the position is behind it")
        // Position 12 is at date 1,012 s: the date boundary (1,025 s) is 13 s on, at 25, before 30.
        #expect(boundaries.next(after: 12, date: origin + MediaTime(seconds: 12)) == 25)
        #expect(boundaries.next(after: 30, date: nil) == nil)
        #expect(boundaries.next(inInterstitial: "ad", after: 2) == 5 && boundaries.next(inInterstitial: "other", after: 0) == nil)
    }
}
