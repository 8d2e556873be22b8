import PlaytraceCore
import Testing
@testable import PlaytracePlayer

@Suite("Seek positions, playback speed ranges and smart navigation")
struct SeekingRulesTests {
    @Test func positionsCarryTheirTolerances() {
        #expect(SeekPosition.at(10).acceptableRange == 10...10)
        #expect(SeekPosition.before(10).acceptableRange.upperBound == 10)
        #expect(SeekPosition.before(10).acceptableRange.lowerBound == -.infinity)
        #expect(SeekPosition.after(10).acceptableRange.lowerBound == 10)
        #expect(SeekPosition.near(10).acceptableRange == -Double.infinity...Double.infinity)
        #expect(SeekPosition.to(10, toleranceBefore: 1, toleranceAfter: -2).acceptableRange == 9...10)
    }

    @Test func positionsResolveIntoTheSeekableRangeAndOutOfBlockedRanges() {
        let seekable = MediaTimeRange(start: 0, end: 100)
        let blocked = BlockedRanges([MediaTimeRange(start: 40, end: 50)])
        #expect(SeekPosition.at(150).resolved(seekable: seekable, blocked: blocked, from: 10).time == 100)
        #expect(SeekPosition.at(-5).resolved(seekable: seekable, blocked: blocked, from: 10).time == 0)
        #expect(SeekPosition.at(45).resolved(seekable: seekable, blocked: blocked, from: 10).time == 50)
        #expect(SeekPosition.at(45).resolved(seekable: seekable, blocked: blocked, from: 80).time
                == MediaTime(seconds: 40) - BlockedRanges.backwardMargin)
        let near = SeekPosition.near(45).resolved(seekable: seekable, blocked: blocked, from: 10)
        #expect(near.time == 50 && near.toleranceAfter.seconds == .infinity, "tolerances are kept")
    }

    @Test(arguments: [
        (StreamType.live, false, 1.0...1.0), (.live, true, 1.0...1.0), (.dvr, true, 0.1...1.0),
        (.dvr, false, 0.1...2.0), (.onDemand, false, 0.1...2.0), (.unknown, false, 1.0...1.0),
    ])
    func speedRangesFollowTheStreamType(type: StreamType, atEdge: Bool, range: ClosedRange<Double>) {
        #expect(PlaybackSpeedRange.allowed(for: type, isAtLiveEdge: atEdge) == range)
    }

    @Test func speedsAreClamped() {
        #expect(PlaybackSpeedRange.clamp(3, for: .onDemand, isAtLiveEdge: false) == 2)
        #expect(PlaybackSpeedRange.clamp(0, for: .onDemand, isAtLiveEdge: false) == 0.1)
        #expect(PlaybackSpeedRange.clamp(1.5, for: .dvr, isAtLiveEdge: true) == 1)
        #expect(PlaybackSpeedRange.clamp(0.5, for: .live, isAtLiveEdge: false) == 1)
        #expect(PlaybackSpeedRange.clamp(.nan, for: .onDemand, isAtLiveEdge: false) == 1)
        #expect(PlaybackSpeedRange.clamp(2, for: .unknown, isAtLiveEdge: false) == 1, "Pillarbox: 1…1 while unknown")
    }
}
