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
