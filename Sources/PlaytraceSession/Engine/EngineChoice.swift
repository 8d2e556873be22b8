import PlaytraceCore
public import PlaytraceHeadless
public import PlaytraceNetwork
public import PlaytracePlayer
#if MPV
import PlaytraceMPV
#endif

/// The engines a session can play with.
public enum EngineKind: String, CaseIterable, Sendable {
    case headless, mpv
}

/// The engine a session plays with.
public struct EngineChoice: Sendable {
    public var kind = EngineKind.headless
    /// libmpv only: a window and sound.
    public var showsOutput = false

    public init(kind: EngineKind = .headless, showsOutput: Bool = false) {
        self.kind = kind
        self.showsOutput = showsOutput
    }

    /// Whether this build has MPVEngine (the package trait MPV).
    public static var isMPVBuilt: Bool {
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
    public func factory(clock: any Clock<Duration>, transport: any HTTPTransport,
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
