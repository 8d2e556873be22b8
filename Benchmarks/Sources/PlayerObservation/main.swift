// How often each public reading of the Player is invalidated while it plays: a Player over the headless engine
// plays the lab's on-demand stream (4 s segments, no interstitial) in real time; after 10 s of start-up, every
// reading a user interface makes is tracked with `withObservationTracking` for 60 s and its invalidations counted.
// The engine snapshot itself changes at every engine event; the readings split out of it should change only when
// their value does.
//
//   swift run --package-path Benchmarks -c release PlayerObservation [seconds]
import Foundation
import PlaytraceCore
import PlaytraceHeadless
import PlaytraceLab
import PlaytraceNetwork
@_spi(Benchmarking) import PlaytracePlayer

@MainActor
func measure(seconds: Double) async throws -> [String: Int] {
    let clock = ContinuousClock()
    var configuration = LabConfiguration(vodSegmentCount: Int(seconds / 4) + 10)
    configuration.vodHasInterstitial = false
    let lab = LabServer(clock: clock, configuration: configuration)
    let port = try await lab.start()
    let transport = AsyncHTTPClientTransport(clock: clock)
    let url = URL(string: "http://127.0.0.1:\(port)/vod/master.m3u8")!
    let player = Player(item: .simple(url: url), clock: clock) { HeadlessEngine(clock: clock, transport: transport) }
    player.play()
    try await clock.sleep(for: .seconds(10))
    let counter = InvalidationCounter()
    counter.trackReadings(of: player)
    try await clock.sleep(for: .seconds(seconds))
    counter.stop()
    player.removeAllItems()
    try await clock.sleep(for: .milliseconds(200))
    try await transport.shutdown()
    await lab.stop()
    return counter.counts
}

let seconds = CommandLine.arguments.dropFirst().first.flatMap(Double.init) ?? 60
let counts = try await measure(seconds: seconds)
let line = counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
print("Player readings invalidated in \(Int(seconds)) s of steady on-demand playback: \(line)")
