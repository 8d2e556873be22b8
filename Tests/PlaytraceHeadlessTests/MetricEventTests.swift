import Foundation
import PlaytraceCore
import PlaytraceHeadless
import PlaytraceLab
import PlaytracePlayer
import Testing

/// Metric events collected from a real engine session against the lab.
@Suite("Metric events from engine sessions", .serialized)
struct MetricEventTests {
    actor Collector {
        var collector = MetricEventCollector()
        func record(_ event: EngineEvent, at time: Duration, playhead: MediaTime) {
            collector.record(event, at: time, playhead: playhead)
        }
        var events: [MetricEvent] { collector.events }
    }

    /// Feeds every engine event to a collector as it arrives, with the clock's time and the playhead.
    static func collect(_ harness: EngineHarness) -> (Collector, Task<Void, Never>) {
        let collector = Collector()
        let events = harness.engine.events()
        let task = Task {
            for await event in events {
                let playhead = await harness.engine.snapshot().playhead
                await collector.record(event, at: harness.stopwatch.elapsed, playhead: playhead)
            }
        }
        return (collector, task)
    }

    /// Waits (in real time, bounded) until the collector holds what `condition` wants.
    static func events(of collector: Collector, where condition: ([MetricEvent]) -> Bool) async -> [MetricEvent] {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let events = await collector.events
            if condition(events) { return events }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return await collector.events
    }

    @Test func aSessionWithAWarningASeekARateChangeAndAStall() async throws {
        var configuration = HeadlessEngine.Configuration()
        configuration.forwardBufferDuration = 8
        // The primary's own events: the lab's interstitial at 24 s would make the throttled stretch an interstitial's.
        configuration.playsInterstitials = false
        let harness = try await EngineHarness(lab: LabConfiguration(vodSegmentCount: 12), engine: configuration)
        let (collector, feeding) = Self.collect(harness)
        await harness.engine.setVariantLimits(VariantLimits(maximumBandwidth: 400_000))
        harness.lab.faults.add(LabFault(pathContains: "/vod/0/seg1.ts", kind: .status(503), remaining: 1))
        await harness.start("/vod/master.m3u8")
        await harness.advance(until: { $0.status == .playing }, limit: .seconds(10))
        await harness.engine.seek(to: 20)
        await harness.advance(until: { !$0.isSeeking }, limit: .seconds(10))
        await harness.engine.setRate(1.5)
        harness.lab.faults.add(LabFault(pathContains: ".ts", kind: .throttle(bytesPerSecond: 20_000)))
        await harness.advance(until: { $0.status == .stalled }, limit: .seconds(40))
        harness.lab.faults.clear()
        await harness.advance(until: { $0.status == .playing }, limit: .seconds(30))

        let events = await Self.events(of: collector) { events in
            events.contains { if case .resumeAfterStall = $0.kind { true } else { false } }
        }
        let kinds = events.map(\.kind)
        #expect(kinds.contains { if case .firstFrame = $0 { true } else { false } })
        let warning = try #require(events.first { if case .warning = $0.kind { true } else { false } })
        if case .warning(let error) = warning.kind { #expect(error.httpStatus == 503 && !error.isFatal) }
        #expect(kinds.contains(.seekBegan(target: 20)))
        #expect(kinds.contains { if case .seekEnded(_, true) = $0 { true } else { false } })
        #expect(kinds.contains(.rateChanged(1.5)))
        let stall = try #require(events.firstIndex { $0.kind == .stall })
        let resume = try #require(events.firstIndex { if case .resumeAfterStall = $0.kind { true } else { false } })
        #expect(stall < resume)
        if case .resumeAfterStall(let duration) = events[resume].kind {
            #expect(duration == events[resume].time - events[stall].time, "the stall's length is the time between its events")
        }
        #expect(events.map(\.time) == events.map(\.time).sorted(), "in order")
        #expect(events[stall].playhead.seconds > 20, "the stall happened after the seek")
        #expect(!kinds.contains { if case .failure = $0 { true } else { false } })
        feeding.cancel()
        await harness.shutdown()
    }

    @Test func onlyTheFirstFatalErrorIsAFailure() {
        var collector = MetricEventCollector()
        let fatal = EngineError(kind: .httpStatus, message: "HTTP 404", isFatal: true, httpStatus: 404)
        let warning = EngineError(kind: .network, message: "timed out", isFatal: false)
        collector.record(.error(warning), at: .seconds(1), playhead: 0)
        collector.record(.error(fatal), at: .seconds(2), playhead: 0)
        collector.record(.error(fatal), at: .seconds(3), playhead: 0)
        collector.record(.statusChanged(.failed), at: .seconds(3), playhead: 0)
        let variant = VariantInfo(index: 0, bandwidth: 1, url: "v")
        collector.record(.variantSwitched(from: nil, to: variant, reason: .initial), at: .seconds(3), playhead: 0)
        collector.record(.itemTransition, at: .seconds(4), playhead: 0)
        #expect(collector.events.map(\.kind) == [.warning(warning), .failure(fatal), .itemTransition])
    }
}
