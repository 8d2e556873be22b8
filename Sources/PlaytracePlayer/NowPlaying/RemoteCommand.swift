public import PlaytraceCore

/// A command from outside the app: headphones, Control Center, the lock screen, a car, a keyboard's media keys.
public enum RemoteCommand: Sendable, Hashable {
    case play
    case pause
    case togglePlayPause
    case nextTrack
    case previousTrack
    case skipForward
    case skipBackward
    /// Seek to a position (a scrubber).
    case changePlaybackPosition(MediaTime)

    /// The kinds of commands, for enablement.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case play, pause, togglePlayPause, nextTrack, previousTrack, skipForward, skipBackward, changePlaybackPosition
    }

    public var kind: Kind {
        switch self {
        case .play: .play
        case .pause: .pause
        case .togglePlayPause: .togglePlayPause
        case .nextTrack: .nextTrack
        case .previousTrack: .previousTrack
        case .skipForward: .skipForward
        case .skipBackward: .skipBackward
        case .changePlaybackPosition: .changePlaybackPosition
        }
    }
}

/// What became of a remote command.
public enum RemoteCommandStatus: String, Sendable, Hashable {
    /// The player carried it out.
    case success
    /// There is no active player, or it has nothing to play.
    case noActionableNowPlayingItem
    /// The command does not apply now (see ``Player/isEnabled(_:)``).
    case disabled
}
