import ArgumentParser
import Foundation
import PlaytraceCore
import PlaytraceNetwork
import PlaytracePlayer

struct Play: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play an HLS stream through the Player (headless engine), with a status line, its tracker's events, "
            + "telemetry to the backends given, and a summary.")

    @OptionGroup var common: CommonOptions
    @OptionGroup var telemetryOptions: TelemetryOptions

    @Argument(help: "The multivariant or media playlist URL.")
    var url: String

    @Option(help: "Stop after this many seconds of media time (live streams play until stopped otherwise).")
    var duration: Double?

    @Option(help: "Cap the variants by peak bandwidth, bits per second.")
    var maxBandwidth: Int?

    @MainActor
    func run() async throws {
        common.bootstrapLogging()
        guard let target = URL(string: url), let scheme = target.scheme, ["http", "https"].contains(scheme.lowercased())
        else { throw ValidationError("\(url) is not an http(s) URL") }
        let clock = ContinuousClock()
        let transport = AsyncHTTPClientTransport(clock: clock)
        let output = ConsoleOutput()
        let title = target.deletingLastPathComponent().lastPathComponent.isEmpty
            ? target.lastPathComponent : target.deletingLastPathComponent().lastPathComponent + "/" + target.lastPathComponent
        let entry = PlayerDemo.Entry(url: target, metadata: DemoMetadata(
            title: title, subtitle: target.absoluteString, chapters: [], timeRanges: [], source: target.absoluteString),
            adBreaks: await Demo.adBreaks(of: target, transport: transport))
        let demo = PlayerDemo(clock: clock, transport: transport, output: output)
        demo.telemetry = try await TelemetrySetup(options: telemetryOptions, clock: clock, transport: transport, output: output)
        if let maxBandwidth { demo.variantLimits = VariantLimits(maximumBandwidth: maxBandwidth) }
        let succeeded = await demo.run([entry], limit: duration)
        try? await transport.shutdown()
        if !succeeded { throw ExitCode.failure }
    }
}
