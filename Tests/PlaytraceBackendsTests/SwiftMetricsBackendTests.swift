import MetricsTestKit
import PlaytraceBackends
import PlaytraceTelemetry
import PlaytraceTestSupport
import Testing

@Suite("swift-metrics bridge")
struct SwiftMetricsBackendTests {
    @Test("Counters, gauges and event counts reach a swift-metrics factory with their dimensions")
    func bridge() async throws {
        let metrics = TestMetrics()
        let harness = TelemetryHarness(hub: HubCore(pingInterval: .zero), metricalc: MetricalcCore(),
                                       backends: [SwiftMetricsBackend(factory: metrics)])
        harness.emit(.mediaRequest, [(.contentId, "urn:1")])
        await harness.advance(.milliseconds(420))
        harness.emit(.start, [(.contentId, "urn:1")])
        let playbackID = try #require(harness.backend.last(.start)?[.playbackId]?.string)
        let dimensions = [("contentId", "urn:1"), ("playbackId", playbackID)]
        #expect(metrics.counterTotal(label: "playtrace_NumPlays", dimensions: dimensions) == 1)
        let startTime = try metrics.expectGauge("playtrace_StartTime", dimensions)
        #expect(startTime.lastValue == 420)
        #expect(metrics.counterTotal(label: "playtrace_events", dimensions: [("action", "Start")]) == 1)
    }
}
