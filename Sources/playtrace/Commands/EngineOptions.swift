public import ArgumentParser
import PlaytraceSession

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

extension EngineKind: ExpressibleByArgument {}
