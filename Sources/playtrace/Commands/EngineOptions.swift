import ArgumentParser
import PlaytraceCore
import PlaytraceHeadless
import PlaytraceNetwork
import PlaytracePlayer
#if MPV
import PlaytraceMPV
#endif

/// Which engine plays a session: `--engine`, and for libmpv whether a person watches (`--show-output`).
struct EngineOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The engine that plays: headless (an HTTP streaming client that decodes nothing) or mpv (libmpv: real decoding).",
        discussion: "mpv needs a build with the package trait MPV: swift run --traits MPV playtrace …"))
    var engine: EngineKind = .headless

    @Flag(help: "With --engine mpv: show the video in a window and play the sound (by default nothing is shown or heard).")
    var showOutput = false

    func validate() throws {
        if engine == .mpv, !EngineChoice.isMPVBuilt {
            throw ValidationError(
                "--engine mpv: this playtrace was built without libmpv; run it with `swift run --traits MPV playtrace …` "
                    + "(needs Debian's libmpv-dev and pkg-config)")
        }
        if showOutput, engine != .mpv {
            throw ValidationError("--show-output needs --engine mpv (the headless engine decodes nothing to show)")
        }
    }

    /// The choice, as a value the session keeps.
    var choice: EngineChoice { EngineChoice(kind: engine, showsOutput: showOutput) }
}

/// The engines a session can play with.
enum EngineKind: String, ExpressibleByArgument, CaseIterable, Sendable {
    case headless, mpv
}

/// The engine a session plays with.
struct EngineChoice: Sendable {
    var kind = EngineKind.headless
    /// libmpv only: a window and sound.
    var showsOutput = false

    /// Whether this build has MPVEngine (the package trait MPV).
    static var isMPVBuilt: Bool {
        #if MPV
        true
        #else
        false
        #endif
    }

    /// Makes the engines of the Player's items.
    /// - Parameters:
    ///   - clock: the session's clock (libmpv plays in real time: a session with it runs on the real clock).
    ///   - transport: the HTTP client (the headless engine's, and MPVEngine's for the playlists' tags).
    ///   - headless: the headless engine's settings (its interstitial settings apply to libmpv too).
    func factory(clock: any Clock<Duration>, transport: any HTTPTransport,
                 headless: HeadlessEngine.Configuration) -> Player.EngineFactory {
        switch kind {
        case .headless:
            return { HeadlessEngine(clock: clock, transport: transport, configuration: headless) }
        case .mpv:
            #if MPV
            var configuration = MPVEngine.Configuration()
            configuration.showsOutput = showsOutput
            // The interstitials' rules are the same on both engines: so is the reader of VAST asset lists.
            configuration.playsInterstitials = headless.playsInterstitials
            configuration.assetListReader = headless.assetListReader
            return { MPVEngine(configuration: configuration, clock: clock, transport: transport) }
            #else
            // Refused when the options are validated: a build without the trait never gets here.
            return { HeadlessEngine(clock: clock, transport: transport, configuration: headless) }
            #endif
        }
    }
}
