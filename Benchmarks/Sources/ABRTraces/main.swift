// Replays bandwidth traces through the real headless engine and the real lab, on a test clock, and reports what
// the adaptive bit rate logic made of each: variant switches, stalls, the average bit rate of the segments it
// fetched, and the average of the link's bandwidth (what an oracle could have used). ABR changes are measured
// with it, not guessed.
//
//   ABRTraces [TRACE…]   traces: steady, step-down, step-up, oscillating (default: all four)
//
// The lab serves a 5-variant VOD ladder (0.4 to 6 Mbit/s, 4 s segments, 180 s). The trace sets the lab's throttle:
// the rate in force when a segment's response starts applies to the whole response (traces change every 10 s or
// more, a few segments). Time is virtual: the clock moves in 100 ms steps, and after each step the run waits until
// every request in flight is parked on the lab's clock, so that the figures do not depend on this machine's speed.
// Tasks that wake at the same virtual instant still run in either order, which now and then moves a switch by one
// segment: each trace runs three times and the median run is printed, with the three bit rates.
import Clocks
import Foundation
import Logging
import PlaytraceCore
import PlaytraceHeadless
import PlaytraceLab
import PlaytraceNetwork
import PlaytracePlayer

/// A link's bandwidth over time: (from second, bits per second), in order.
struct Trace {
    let name: String
    let steps: [(from: Double, bitsPerSecond: Int)]

    func bitsPerSecond(at seconds: Double) -> Int {
        steps.last { $0.from <= seconds }?.bitsPerSecond ?? steps[0].bitsPerSecond
    }

    static let all: [Trace] = [
        Trace(name: "steady", steps: [(0, 2_500_000)]),
        Trace(name: "step-down", steps: [(0, 8_000_000), (60, 1_200_000)]),
        Trace(name: "step-up", steps: [(0, 1_000_000), (60, 8_000_000)]),
        Trace(name: "oscillating", steps: stride(from: 0.0, to: 400, by: 10).map { ($0, Int($0 / 10) % 2 == 0 ? 8_000_000 : 1_200_000) }),
    ]
}

struct Outcome {
    var switches = 0
    var stalls = 0
    var stallSeconds = 0.0
    var averageBitRate = 0.0
    var linkAverage = 0.0
    var startup = 0.0
    var ended = false
    var variants: [Int] = []
}

func run(_ trace: Trace) async throws -> Outcome {
    let clock = TestClock<Duration>()
    let ladder = [400_000, 800_000, 1_600_000, 3_000_000, 6_000_000].map {
        LabConfiguration.Variant(bandwidth: $0, width: 1280, height: 720)
    }
    var configuration = LabConfiguration(variants: ladder, segmentDuration: 4, vodSegmentCount: 45)
    // The primary content alone: the lab's on-demand stream carries an interstitial by default, whose asset
    // would compete for the link and stall the playback at its date on the slow traces, which is not the ABR rule's
    // doing.
    configuration.vodHasInterstitial = false
    var quiet = Logger(label: "playtrace.lab")
    quiet.logLevel = .error
    let lab = LabServer(clock: clock, configuration: configuration, logger: quiet)
    let port = try await lab.start()
    let transport = AsyncHTTPClientTransport(clock: clock)
    let engine = HeadlessEngine(clock: clock, transport: transport)
    let settle = { () async -> Bool in await lab.settle(inFlight: { await engine.snapshot().requestsInFlight }) }
    var rate = trace.bitsPerSecond(at: 0)
    lab.faults.add(LabFault(pathContains: ".ts", kind: .throttle(bytesPerSecond: rate / 8)))
    await engine.load(EngineSource(url: URL(string: "http://127.0.0.1:\(port)/vod/master.m3u8")!))
    await engine.play()
    var outcome = Outcome()
    var linkSum = 0.0
    var elapsed = 0.0
    var snapshot = await engine.snapshot()
    _ = await settle()
    while snapshot.status != .ended, snapshot.status != .failed, elapsed < 400 {
        let now = trace.bitsPerSecond(at: elapsed)
        if now != rate {
            rate = now
            lab.faults.clear()
            lab.faults.add(LabFault(pathContains: ".ts", kind: .throttle(bytesPerSecond: rate / 8)))
        }
        await clock.advance(by: .milliseconds(100))
        guard await settle() else { throw BenchmarkError.unsettled(trace.name) }
        elapsed += 0.1
        linkSum += Double(rate) * 0.1
        snapshot = await engine.snapshot()
    }
    outcome.ended = snapshot.status == .ended
    outcome.stalls = snapshot.stallCount
    outcome.stallSeconds = Double(snapshot.stallDuration.components.seconds)
        + Double(snapshot.stallDuration.components.attoseconds) * 1e-18
    outcome.startup = snapshot.startupTime.map { Double($0.components.seconds) + Double($0.components.attoseconds) * 1e-18 } ?? .nan
    outcome.linkAverage = linkSum / max(elapsed, 0.1)
    outcome.variants = lab.requests.all.compactMap { request -> Int? in
        let parts = request.path.split(separator: "/")
        guard parts.count == 3, parts[0] == "vod", parts[2].hasPrefix("seg"), request.status == 200 else { return nil }
        return Int(parts[1])
    }
    outcome.switches = zip(outcome.variants, outcome.variants.dropFirst()).filter { $0 != $1 }.count
    let fetched = outcome.variants.map { Double(ladder[$0].bandwidth) }
    outcome.averageBitRate = fetched.isEmpty ? 0 : fetched.reduce(0, +) / Double(fetched.count)
    await engine.stop()
    try? await transport.shutdown()
    await lab.stop()
    return outcome
}

enum BenchmarkError: Error, CustomStringConvertible {
    case unsettled(String)
    case unknownTrace(String)
    case notEnded(String)

    var description: String {
        switch self {
        case .unsettled(let name): "trace \(name): the engine and the lab did not settle"
        case .unknownTrace(let name): "unknown trace \(name) (steady, step-down, step-up, oscillating)"
        case .notEnded(let name): "trace \(name): playback did not reach its end"
        }
    }
}

let names = CommandLine.arguments.dropFirst()
do {
    let traces = try names.isEmpty ? Trace.all : names.map { name in
        guard let trace = Trace.all.first(where: { $0.name == name }) else { throw BenchmarkError.unknownTrace(name) }
        return trace
    }
    for trace in traces {
        // Three runs: tasks that wake at the same virtual instant (the engine's tick, a finished download) run in
        // either order, which can move a switch by a segment; the median run by bit rate is printed, with the spread.
        var outcomes: [Outcome] = []
        for _ in 0..<3 {
            let outcome = try await run(trace)
            guard outcome.ended else { throw BenchmarkError.notEnded(trace.name) }
            outcomes.append(outcome)
        }
        outcomes.sort { $0.averageBitRate < $1.averageBitRate }
        let outcome = outcomes[1]
        let mbps = { (value: Double) in String(format: "%.2f", value / 1e6) }
        let spread = outcomes.map { mbps($0.averageBitRate) }.joined(separator: "/")
        print("abr \(trace.name): \(outcome.switches) switches, \(outcome.stalls) stalls (\(String(format: "%.1f", outcome.stallSeconds)) s), "
            + "average \(mbps(outcome.averageBitRate)) Mbit/s fetched over a link of \(mbps(outcome.linkAverage)) Mbit/s on average, "
            + "startup \(String(format: "%.1f", outcome.startup)) s (median of 3 runs: \(spread)); "
            + "variants \(outcome.variants.map(String.init).joined())")
    }
} catch {
    FileHandle.standardError.write(Data("ABRTraces: \(error)\n".utf8))
    exit(1)
}
