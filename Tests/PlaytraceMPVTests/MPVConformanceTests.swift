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

    /// The same on DASH, which libmpv reads with FFmpeg's own DASH demuxer: the on-demand checks whose outcome
    /// depends on how the stream is read (loading, start positions, exact seeks, skipped ranges, the end, a late
    /// segment, a missing stream). The others (tolerated and replaced seeks, the rate, progress boundaries) exercise
    /// MPVEngine's own logic, which the HLS run covers, and would add half a minute of real-time decoding. The lab's
    /// live and DVR MPDs, and its on-demand one with an ad period, name synthetic segments, which no decoder reads
    /// (its HLS streams are served as real MPEG-TS instead).
    let dash = EngineConformance(format: .dash) {
        let transport = AsyncHTTPClientTransport()
        return (MPVEngine(transport: transport), { try? await transport.shutdown() })
    }

    @Test(arguments: [EngineConformance.Check.startsAtTheRequestedPosition, .exactSeekLandsOnTarget, .skipsBlockedRanges,
                      .endsAtTheEnd, .stallsWhileASegmentIsLate, .missingStreamFails])
    func conformsOnDASH(_ check: EngineConformance.Check) async throws { try await dash.run(check) }
}
#endif
