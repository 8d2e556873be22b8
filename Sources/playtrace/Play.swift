import ArgumentParser
import Foundation
import PlaytraceCore
import PlaytraceNetwork

struct Play: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play an HLS stream with the headless engine, showing a live status line and a summary.")

    @OptionGroup var common: CommonOptions

    @Argument(help: "The multivariant or media playlist URL.")
    var url: String

    @Option(help: "Stop after this many seconds of media time (live streams play until stopped otherwise).")
    var duration: Double?

    @Option(help: "Cap the variants by peak bandwidth, bits per second.")
    var maxBandwidth: Int?

    func run() async throws {
        common.bootstrapLogging()
        guard let target = URL(string: url), let scheme = target.scheme, ["http", "https"].contains(scheme.lowercased())
        else { throw ValidationError("\(url) is not an http(s) URL") }
        let clock = ContinuousClock()
        let transport = AsyncHTTPClientTransport(clock: clock)
        let session = PlaybackSession(clock: clock, transport: transport, output: ConsoleOutput(),
                                      maximumBandwidth: maxBandwidth)
        let outcome = await session.run(url: target, limit: duration)
        try? await transport.shutdown()
        if !outcome.succeeded { throw ExitCode.failure }
    }
}
