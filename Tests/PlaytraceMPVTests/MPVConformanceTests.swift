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

    @Test func startsAtTheRequestedPosition() async throws { try await suite.startsAtTheRequestedPosition() }
    @Test func exactSeekLandsOnTarget() async throws { try await suite.exactSeekLandsOnTarget() }
    @Test func toleratedSeekLandsWithinTolerances() async throws { try await suite.toleratedSeekLandsWithinTolerances() }
    @Test func seekReplacesTheOneUnderWay() async throws { try await suite.seekReplacesTheOneUnderWay() }
    @Test func skipsBlockedRanges() async throws { try await suite.skipsBlockedRanges() }
    @Test func skippedRangeAtTheEndEndsTheItem() async throws { try await suite.skippedRangeAtTheEndEndsTheItem() }
    @Test func playsAtTheRate() async throws { try await suite.playsAtTheRate() }
    @Test func endsAtTheEnd() async throws { try await suite.endsAtTheEnd() }
    @Test func progressEndsAtBoundaries() async throws { try await suite.progressEndsAtBoundaries() }
    @Test func stallsWhileASegmentIsLate() async throws { try await suite.stallsWhileASegmentIsLate() }
    @Test func reportsTheProgramDateTime() async throws { try await suite.reportsTheProgramDateTime() }
    @Test func missingStreamFails() async throws { try await suite.missingStreamFails() }
}
#endif
