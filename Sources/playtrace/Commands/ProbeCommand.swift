import ArgumentParser
import Foundation
import PlaytraceCore
import PlaytraceNetwork
import PlaytracePlayer
import PlaytraceSession

struct ProbeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Load a stream with many simulated viewers, each a whole Player with its trackers, and say what each "
            + "viewer went through: startup, stalls, variants, requests, ad beacons.")

    @OptionGroup var common: CommonOptions

    @Argument(help: "The multivariant or media playlist's http(s) URL (with --ads, the SSAI session URL).")
    var url: String

    @Option(help: "How many viewers (the whole population, every shard's together).")
    var viewers: Int = 1

    @Option(help: "Over how many seconds the viewers start, evenly spaced.")
    var ramp: Double = 0

    @Option(help: "How many seconds the viewers play together once the ramp is over.")
    var duration: Double = 60

    @Option(help: "The seed of the population (viewer identities, script shifts): the same seed, the same viewers.")
    var seed: UInt64 = 1

    @Option(help: "Cap the variants by peak bandwidth, bits per second.")
    var maxBandwidth: Int?

    func validate() throws {
        guard let target = URL(string: url), ["http", "https"].contains(target.scheme?.lowercased() ?? ""),
              target.host?.isEmpty == false else {
            throw ValidationError(PlainText.safe("\(url) is not an http(s) URL"))
        }
        guard viewers >= 1 else { throw ValidationError("--viewers must be at least 1") }
        guard ramp >= 0, ramp <= 1e7 else { throw ValidationError("--ramp must be a number of seconds from 0") }
        guard duration > 0, duration <= 1e7 else { throw ValidationError("--duration must be a positive number of seconds") }
    }

    @MainActor
    func run() async throws {
        common.bootstrapLogging()
        guard let target = URL(string: url) else { throw ValidationError(PlainText.safe("\(url) is not a URL")) }
        // The viewers' sleeps share one timer: thousands of engines ticking cost one wake-up per 10 ms.
        let clock = CoalescedClock(granularity: .milliseconds(10))
        let population = ProbePopulation(size: viewers, seed: seed, ramp: .saturating(milliseconds: ramp * 1_000))
        let title = StreamTitle.of(target)
        let aggregate = try await AsyncHTTPClientTransport.scoped(clock: clock, connectionsPerHost: max(8, population.shardSize)) { client in
            var configuration = Probe.Configuration(population: population,
                                                    duration: .saturating(milliseconds: duration * 1_000)) { viewer in
                let item = ViewerSession.Item(url: target, metadata: ItemMetadata(
                    title: title, subtitle: target.absoluteString, source: target.absoluteString))
                var session = ViewerSession.Configuration(items: [item], command: "probe")
                session.viewerID = viewer.id
                session.tick = .seconds(1)
                if let maxBandwidth { session.variantLimits = VariantLimits(maximumBandwidth: maxBandwidth) }
                return session
            }
            configuration.worstKept = 10
            let probe = Probe(configuration: configuration, clock: clock, transport: client)
            return await probe.run()
        }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        print("viewers: \(aggregate.started) started, \(aggregate.ended) ended, \(aggregate.failed) failed")
        let startup = [50.0, 90, 99].map { aggregate.startup.percentile($0).map { "\($0)" } ?? "-" }
        print("startup: p50 \(startup[0]) p90 \(startup[1]) p99 \(startup[2]) max \(aggregate.startup.max.map { "\($0)" } ?? "-")")
        print("stalls: \(aggregate.stalls) (\(aggregate.stallSeconds) s); requests \(aggregate.requests), failed \(aggregate.failedRequests), bytes \(aggregate.bytes)")
        print("cpu: \(cpu) s, max rss \(usage.ru_maxrss) KB")
    }
}
