import PlaytraceCore
import PlaytraceTelemetry
import PlaytraceTestSupport
import Testing

@Suite("MetricalcCore")
struct MetricalcCoreTests {
    private func value(_ h: TelemetryHarness, _ name: String) -> Double? { h.backend.metrics(named: name).last?.value }

    @Test("OpenAVT's metrics and CTA-2066's session metrics for a playback with a stall, a pause and a seek")
    func session() async throws {
        let h = TelemetryHarness(hub: HubCore(pingInterval: .zero), metricalc: MetricalcCore())
        let dimensions: [(Attribute, AttributeValue)] = [(.sessionId, "s1"), (.contentId, "urn:1"), (.engine, "headless")]
        h.emit(.mediaRequest, dimensions)
        h.emit(.streamLoad, dimensions)
        h.emit(.bufferBegin, dimensions)
        await h.advance(.milliseconds(800))
        h.emit(.bufferFinish, dimensions)
        h.emit(.start, dimensions + [(.bitrate, 1_000_000)])
        await h.advance(.seconds(10))
        h.emit(.qualityChangeUp, dimensions + [(.bitrate, 3_000_000)])
        await h.advance(.seconds(10))
        h.emit(.bufferBegin, dimensions)
        await h.advance(.seconds(2))
        h.emit(.bufferFinish, dimensions)
        await h.advance(.seconds(5))
        h.emit(.pauseBegin, dimensions)
        await h.advance(.seconds(60))
        h.emit(.pauseFinish, dimensions)
        h.emit(.seekBegin, dimensions)
        h.emit(.bufferBegin, dimensions)
        await h.advance(.milliseconds(500))
        h.emit(.bufferFinish, dimensions)
        h.emit(.seekFinish, dimensions)
        await h.advance(.seconds(5))
        h.emit(.end, dimensions)

        #expect(value(h, "StartTime") == 800)
        #expect(h.backend.metrics(named: "NumRebuffers").count == 1, "the initial and the in-seek buffers are not rebuffers")
        #expect(value(h, "RebufferTime") == 2_000)
        #expect(value(h, "StallCount") == 1)
        #expect(value(h, "StallDuration") == 2_000)
        #expect(value(h, "ContentPlaybackTime") == 30_000)
        #expect(h.backend.metrics(named: "PlayTime").reduce(0) { $0 + $1.value } == 30_000)
        let watched = try #require(value(h, "WatchedTime"))
        #expect(watched == 800 + 30_000 + 2_000 + 500, "startup, play, stall and seek; not the pause")
        #expect(value(h, "RebufferingRatio") == 2_000 / watched)
        let expectedBits: Double = 1_000_000 * 10_000 + 3_000_000 * 20_000
        #expect(value(h, "AverageBitrate") == expectedBits / 30_000, "weighted by the time played at each bit rate")
        #expect(value(h, "BitrateSwitchesUp") == 1 && value(h, "BitrateSwitchesDown") == 0)
        #expect(h.backend.metrics(named: "NumEnds").count == 1)
        #expect(h.backend.metrics(named: "ExitBeforeVideoStart").isEmpty)
        let start = try #require(h.backend.metrics(named: "StartTime").first)
        #expect(start.dimensions[.contentId] == "urn:1" && start.dimensions[.engine] == "headless")
        #expect(start.dimensions[.playbackId] != nil && start.kind == .gauge)
    }

    @Test("Exits before video start, start failures and failures during playback")
    func exitsAndFailures() async {
        let h = TelemetryHarness(hub: HubCore(pingInterval: .zero), metricalc: MetricalcCore())
        h.emit(.mediaRequest)
        await h.advance(.seconds(3))
        h.emit(.stop)
        #expect(h.backend.metrics(named: "ExitBeforeVideoStart").count == 1)
        h.emit(.mediaRequest)
        h.emit(.error, [(.isFatal, true), (.errorDescription, "HTTP 404")])
        h.emit(.end)
        h.emit(.mediaRequest)
        h.emit(.start)
        h.emit(.error, [(.isFatal, false)])
        await h.advance(.seconds(4))
        h.emit(.error, [(.isFatal, true)])
        h.emit(.stop)
        let failures = h.backend.metrics(named: "PlaybackFailure").map { $0.dimensions[.failureStage] }
        #expect(failures == [.string("start"), .string("playback")])
        #expect(h.backend.metrics(named: "ExitBeforeVideoStart").count == 1)
        #expect(h.backend.metrics(named: "NumRequests").count == 3)
    }
}
