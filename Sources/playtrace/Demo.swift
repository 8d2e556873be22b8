import ArgumentParser
import Foundation
import PlaytraceCore
import PlaytraceHeadless
import PlaytraceHLS
import PlaytraceLab
import PlaytraceNetwork

struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start the lab in-process and play its on-demand stream with ad breaks to the end.")

    @OptionGroup var common: CommonOptions

    @Option(help: "How many times faster than real time the demo runs (the lab and the engine share the clock).")
    var speed: Double = 4

    @Option(help: "The stream to play: vod, live or dvr (live and DVR play for --duration seconds).")
    var stream: String = "vod"

    @Option(help: "For live streams, how many seconds of media time to play.")
    var duration: Double = 60

    func run() async throws {
        common.bootstrapLogging()
        guard speed > 0, speed.isFinite else { throw ValidationError("--speed must be a positive number") }
        guard ["vod", "live", "dvr"].contains(stream) else { throw ValidationError("--stream is vod, live or dvr") }
        let clock = ScaledClock(speed: speed)
        let lab = LabServer(clock: clock)
        let port = try await lab.start()
        let url = URL(string: "http://127.0.0.1:\(port)/\(stream)/master.m3u8")!
        print("Playtrace demo — lab on http://127.0.0.1:\(port), playing \(url.path) at \(speed)× real time")
        let transport = AsyncHTTPClientTransport(clock: clock)
        let adBreaks = await Self.adBreaks(of: url, transport: transport)
        for signal in adBreaks {
            print("ad break \(signal.id): \(signal.source.rawValue) at \(signal.startTime?.timecode ?? "?")"
                + (signal.duration.map { " for \($0.seconds) s" } ?? "")
                + (signal.interstitial?.assetList.map { ", asset list \($0)" } ?? ""))
        }
        let session = PlaybackSession(clock: clock, transport: transport, output: ConsoleOutput(), adBreaks: adBreaks)
        let outcome = await session.run(url: url, limit: stream == "vod" ? nil : duration)
        try? await transport.shutdown()
        await lab.stop()
        print("lab served \(lab.requests.all.count) requests")
        if !outcome.succeeded { throw ExitCode.failure }
    }

    /// The ad breaks the stream's first variant signals (for the narration; the engine does not need them).
    static func adBreaks(of url: URL, transport: any HTTPTransport) async -> [AdBreakSignal] {
        do {
            let master = try await transport.send(HTTPRequest(url: url))
            guard case .multivariant(let playlist) = try PlaylistParser().parse(bytes: master.body),
                  let first = playlist.variants.first,
                  let variantURL = URL(string: first.uri, relativeTo: master.url)
            else { return [] }
            let media = try await transport.send(HTTPRequest(url: variantURL.absoluteURL))
            guard case .media(let mediaPlaylist) = try PlaylistParser().parse(bytes: media.body) else { return [] }
            return mediaPlaylist.adBreaks
        } catch {
            print("could not read the stream's ad breaks: \(error)")
            return []
        }
    }
}
