import Clocks
import Foundation
import PlaytraceCore
import PlaytracePlayer
import Testing
@testable import PlaytraceSession

@Suite("Session recorder: a timeline bounded whatever the session's length")
@MainActor
struct SessionRecorderTests {
    @Test("Past the limit every other sample goes and the step doubles; the array never grows past the limit")
    func samplesStayWithinTheLimit() async {
        let clock = TestClock<Duration>()
        let recorder = SessionRecorder(stopwatch: Stopwatch(clock: clock), limits: SessionRecordLimits(samples: 8))
        // A player with no item: its state is idle, and it never makes an engine.
        let player = Player(clock: clock) { preconditionFailure("a player without items makes no engine") }
        let capacity = recorder.timeline.samples.capacity
        #expect(capacity >= 8 && capacity < 16)
        for _ in 0..<40 {
            recorder.sample(player, item: 0)
            await clock.advance(by: .seconds(1))
        }
        let samples = recorder.timeline.samples
        #expect(samples.count < 8)
        #expect(recorder.timeline.samples.capacity == capacity)
        // 40 s sampled: the step doubled each time the samples filled the limit (1 → 2 → 4 → 8 s); the first sample
        // stays, the order too, and the latest is at most one step old.
        #expect(recorder.timeline.sampleIntervalSeconds == 8)
        let times = samples.map(\.atSeconds)
        #expect(times.first == 0)
        #expect(zip(times.dropFirst(), times).allSatisfy { $0 > $1 })
        #expect(times.last.map { 39 - $0 < 8 } == true)
    }
}
