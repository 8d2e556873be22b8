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
}
#endif
