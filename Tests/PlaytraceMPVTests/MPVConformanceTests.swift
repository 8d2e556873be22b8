#if MPV
import PlaytraceEngineConformance
import PlaytraceMPV
import PlaytraceNetwork
import PlaytracePlayer
import Testing

/// The engine conformance suite (`PlaytraceEngineConformance`) on MPVEngine; `HeadlessConformanceTests` runs the
/// same checks on the headless engine.
@Suite("Engine conformance: MPVEngine", .serialized)
struct MPVConformanceTests {
    let suite = EngineConformance {
        let transport = AsyncHTTPClientTransport()
        return (MPVEngine(transport: transport), { try? await transport.shutdown() })
    }

    @Test(arguments: EngineConformance.Check.allCases)
    func conforms(_ check: EngineConformance.Check) async throws { try await suite.run(check) }

    /// The same on DASH: on demand, which libmpv reads with FFmpeg's own DASH demuxer, the checks whose outcome
    /// depends on how the stream is read (loading, start positions, exact seeks, skipped ranges, the end, a late
    /// segment, a missing stream); live and DVR, which play through the HLS playlists the engine writes from the
    /// MPD (`DASHBridge`), on the lab's real fragmented MP4 looped. The others (tolerated and replaced seeks, the
    /// rate, progress boundaries) exercise MPVEngine's own logic, which the HLS run covers, and would add half a
    /// minute of real-time decoding; the lab's on-demand MPD with an ad period names synthetic segments (and its
    /// periods are beyond FFmpeg's DASH demuxer).
    let dash = EngineConformance(format: .dash) {
        let transport = AsyncHTTPClientTransport()
        return (MPVEngine(transport: transport), { try? await transport.shutdown() })
    }

    @Test(arguments: [EngineConformance.Check.startsAtTheRequestedPosition, .exactSeekLandsOnTarget, .skipsBlockedRanges,
                      .endsAtTheEnd, .stallsWhileASegmentIsLate, .missingStreamFails, .followsALiveStream,
                      .seeksBackInADVRWindow])
    func conformsOnDASH(_ check: EngineConformance.Check) async throws { try await dash.run(check) }
}
#endif
