import Foundation
import PlaytraceCore
public import PlaytraceNetwork

/// Many viewers at once: each a whole ``ViewerSession`` (the Player on its engine, with its trackers, telemetry and
/// ad tracking), started over the ramp, played together for the duration, then ended as a session's normal end
/// does. What they did is folded into one ``ProbeAggregate`` as each ends; no viewer's record is kept beyond that,
/// but for the worst few.
@MainActor
public final class Probe {
    /// What a probe runs.
    public struct Configuration {
        /// The viewers (this shard's part of the population).
        public var population: ProbePopulation
        /// How long the viewers play together once the ramp is over; the probe then ends them all.
        public var duration: Duration
        /// The session of one viewer: its items, engine, telemetry and ads (set up here: an SSAI session per viewer).
        /// A viewer whose set-up throws has failed before it played.
        public var session: @MainActor (ProbePopulation.Viewer) async throws -> ViewerSession.Configuration
        /// Asked every 250 ms: when it says yes, the ramp stops and every viewer ends as its normal end does.
        public var isInterrupted: @Sendable () -> Bool = { false }
        /// How many of the worst viewers keep their whole session summary for the report.
        public var worstKept = 10

        public init(population: ProbePopulation, duration: Duration,
                    session: @escaping @MainActor (ProbePopulation.Viewer) async throws -> ViewerSession.Configuration) {
            self.population = population
            self.duration = duration
            self.session = session
        }
    }

    private let configuration: Configuration
    private let clock: any Clock<Duration>
    private let transport: any HTTPTransport
    /// What the viewers did so far.
    public private(set) var aggregate = ProbeAggregate()
    /// The sessions playing now, by viewer place.
    private var active: [Int: ViewerSession] = [:]
    private var ending = false

    /// - Parameters:
    ///   - configuration: the viewers and how long they play.
    ///   - clock: the probe's clock (the viewers' too).
    ///   - transport: the one HTTP client every viewer's requests go through.
    public init(configuration: Configuration, clock: any Clock<Duration>, transport: any HTTPTransport) {
        self.configuration = configuration
        self.clock = clock
        self.transport = transport
    }

    /// Starts the viewers over the ramp, lets them play for the duration, ends them, and returns the aggregate.
    public func run() async -> ProbeAggregate {
        let population = configuration.population
        let stopwatch = Stopwatch(clock: clock)
        aggregate.planned = population.shardSize
        var viewers: [Task<Void, Never>] = []
        for viewer in population.viewers {
            while stopwatch.elapsed < viewer.startOffset, !shouldEnd(stopwatch) {
                let wait = min(viewer.startOffset - stopwatch.elapsed, .milliseconds(250))
                do { try await clock.sleep(for: wait) } catch { break }
            }
            if shouldEnd(stopwatch) { break }
            aggregate.started += 1
            viewers.append(Task { await self.play(viewer) })
        }
        while !shouldEnd(stopwatch), aggregate.started > aggregate.ended {
            do { try await clock.sleep(for: .milliseconds(250)) } catch { break }
        }
        endAll()
        for viewer in viewers { await viewer.value }
        return aggregate
    }

    private func shouldEnd(_ stopwatch: Stopwatch) -> Bool {
        if ending { return true }
        if configuration.isInterrupted() || stopwatch.elapsed >= configuration.population.ramp + configuration.duration {
            endAll()
        }
        return ending
    }

    private func endAll() {
        guard !ending else { return }
        ending = true
        for session in active.values { session.stop("the probe's end") }
    }

    private func play(_ viewer: ProbePopulation.Viewer) async {
        let sessionConfiguration: ViewerSession.Configuration
        do {
            sessionConfiguration = try await configuration.session(viewer)
        } catch {
            aggregate.failedToStart(viewer, error: error)
            return
        }
        let recording = RecordingTransport(transport, stopwatch: Stopwatch(clock: clock))
        let session = ViewerSession(configuration: sessionConfiguration, clock: clock, transport: recording)
        active[viewer.index] = session
        if ending { session.stop("the probe's end") }
        let result = await session.run()
        active[viewer.index] = nil
        aggregate.add(result, of: viewer, keepingWorst: configuration.worstKept)
    }
}
