// How much a slow tracker holds up the Player's main actor: a tracker that blocks its thread for 50 ms on every
// call (a synchronous upload, a disk write) as a main-actor `PlayerItemTracker` and as an `AsyncPlayerItemTracker`,
// each on a Player playing a synthetic stream in real time with a property update every 100 ms. A probe on the main
// actor wakes every 10 ms and records how late it woke: what a user interface would feel. Rounds alternate between
// the two kinds (interleaved, so both see the same machine load); prints the lateness percentiles of each.
//
//   swift run --package-path Benchmarks -c release SlowTracker [rounds] [seconds per round]
import Foundation
import PlaytraceCore
import PlaytracePlayer
import SyntheticEngine

/// 50 ms of blocked thread.
func slowWork() { usleep(50_000) }

final class MainActorSlowTracker: PlayerItemTracker {
    init(configuration: Void) {}
    func enable(for player: Player) { slowWork() }
    func updateMetadata(to metadata: Void) {}
    func updateProperties(to properties: TrackerProperties) { slowWork() }
    func disable(with properties: TrackerProperties) { slowWork() }
}

actor AsyncSlowTracker: AsyncPlayerItemTracker {
    init(configuration: Void) {}
    func enable(with properties: TrackerProperties) { slowWork() }
    func updateMetadata(to metadata: Void) {}
    func updateProperties(to properties: TrackerProperties) { slowWork() }
    func disable(with properties: TrackerProperties) { slowWork() }
}

enum Kind: String, CaseIterable { case mainActor = "main-actor tracker", async = "AsyncPlayerItemTracker" }

/// Plays for `seconds` with one slow tracker of `kind`; returns the probe's lateness samples, in milliseconds.
@MainActor
func round(_ kind: Kind, seconds: Double) async -> [Double] {
    let clock = ContinuousClock()
    let adapter: TrackerAdapter<EmptyAssetMetadata> = switch kind {
    case .mainActor: MainActorSlowTracker.adapter()
    case .async: AsyncSlowTracker.adapter()
    }
    var configuration = Player.Configuration()
    configuration.refreshInterval = .milliseconds(100)
    let player = Player(item: .simple(url: URL(string: "synthetic://stream.m3u8")!, trackerAdapters: [adapter]),
                        configuration: configuration, clock: clock) {
        SyntheticEngine(clock: clock, duration: MediaTime(seconds: 3600))
    }
    player.play()
    var lateness: [Double] = []
    let end = clock.now + .seconds(seconds)
    var expected = clock.now + .milliseconds(10)
    while clock.now < end {
        try? await clock.sleep(until: expected)
        let now = clock.now
        lateness.append((now - expected).seconds * 1000)
        expected = now + .milliseconds(10)
    }
    player.removeAllItems()
    return lateness
}

func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction))]
}

let arguments = CommandLine.arguments.dropFirst().compactMap(Double.init)
let rounds = Int(arguments.first ?? 3)
let seconds = arguments.dropFirst().first ?? 3
var samples: [Kind: [Double]] = [:]
for _ in 0..<rounds {
    for kind in Kind.allCases { samples[kind, default: []] += await round(kind, seconds: seconds) }
}
for kind in Kind.allCases {
    let values = samples[kind] ?? []
    print(String(format: "slow tracker (50 ms per call, updates every 100 ms), %@: main-actor lateness p50 %.1f ms, "
                 + "p99 %.1f ms, worst %.1f ms (%d probes)", kind.rawValue, percentile(values, 0.5),
                 percentile(values, 0.99), values.max() ?? .nan, values.count))
}
