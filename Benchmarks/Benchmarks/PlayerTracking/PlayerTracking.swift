// The cost of one property update fanned out to the current item's trackers: the player captures its properties
// once (a snapshot value) and hands them to each enabled tracker.
import Benchmark
import Foundation
@_spi(Benchmarking) import PlaytracePlayer
import PlaytraceCore
import SyntheticEngine

/// A tracker that does the least a real one does: keeps the properties.
final class KeepingTracker: PlayerItemTracker {
    private var last: TrackerProperties?
    init(configuration: Void) {}
    func enable(for player: Player) {}
    func updateMetadata(to metadata: Void) {}
    func updateProperties(to properties: TrackerProperties) { last = properties }
    func disable(with properties: TrackerProperties) {}
}

@MainActor
func makePlayer(trackers: Int) -> Player {
    let adapters: [TrackerAdapter<EmptyAssetMetadata>] = (0..<trackers).map { _ in KeepingTracker.adapter() }
    let item = PlayerItem.simple(url: URL(string: "synthetic://stream.m3u8")!, trackerAdapters: adapters)
    let clock = ContinuousClock()
    return Player(item: item, clock: clock) { SyntheticEngine(clock: clock, duration: MediaTime(seconds: 3600)) }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        scalingFactor: .kilo,
        maxDuration: .seconds(3),
        maxIterations: 1_000)

    for count in [1, 10, 100] {
        Benchmark("property update to \(count) tracker(s)") { benchmark in
            let player = await MainActor.run { makePlayer(trackers: count) }
            let iterations = benchmark.scaledIterations
            benchmark.startMeasurement()
            await MainActor.run {
                for _ in iterations { player.notifyPropertiesNow() }
            }
            benchmark.stopMeasurement()
        }
    }
}
