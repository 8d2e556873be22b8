import PlaytraceEngineConformance
import PlaytraceHeadless
import PlaytraceNetwork
import PlaytracePlayer
import Testing

/// The engine conformance suite (`PlaytraceEngineConformance`) on the headless engine; `MPVConformanceTests` runs
/// the same checks on MPVEngine.
@Suite("Engine conformance: the headless engine", .serialized)
struct HeadlessConformanceTests {
    let suite = EngineConformance {
        let transport = AsyncHTTPClientTransport()
        let engine = HeadlessEngine(clock: ContinuousClock(), transport: transport)
        return (engine, { try? await transport.shutdown() })
    }

    @Test(arguments: EngineConformance.Check.allCases)
    func conforms(_ check: EngineConformance.Check) async throws { try await suite.run(check) }

    /// The same on DASH: ffmpeg's dash muxer's presentation of the same media, the lab's live and DVR MPDs.
    let dash = EngineConformance(format: .dash) {
        let transport = AsyncHTTPClientTransport()
        let engine = HeadlessEngine(clock: ContinuousClock(), transport: transport)
        return (engine, { try? await transport.shutdown() })
    }

    @Test(arguments: EngineConformance.checks(for: .dash))
    func conformsOnDASH(_ check: EngineConformance.Check) async throws { try await dash.run(check) }
}
