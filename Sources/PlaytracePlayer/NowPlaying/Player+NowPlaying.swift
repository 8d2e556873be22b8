extension Player {
    /// The player that owns the system's now-playing information and receives remote commands, if any.
    public static var active: Player? { NowPlayingCenter.shared.activePlayer }

    /// Whether this player is the active one.
    public var isActive: Bool { NowPlayingCenter.shared.activePlayer === self }

    /// Makes this player the one that shows in now-playing and receives remote commands; the previous active
    /// player stops being it. Call it when entering an immersive playback experience.
    public func becomeActive() {
        NowPlayingCenter.shared.activePlayer = self
    }

    /// Stops being the active player, when it is.
    public func resignActive() {
        guard isActive else { return }
        NowPlayingCenter.shared.activePlayer = nil
    }

    /// What now-playing shows for the current item (nil without one).
    public var nowPlayingInfo: NowPlayingInfo? {
        guard currentItem != nil else { return nil }
        let isLive = streamType == .live || streamType == .dvr
        return NowPlayingInfo(
            title: metadata.title, subtitle: metadata.subtitle, artworkSource: metadata.imageSource,
            elapsedTime: time, duration: streamType == .onDemand ? engineSnapshot.duration : nil,
            rate: playbackState == .playing && !isBuffering ? playbackSpeed : 0, isLive: isLive,
            chapterTitle: currentChapter?.title)
    }

    /// Whether a remote command applies now: playback commands need an item; next and previous follow the
    /// playlist navigation rules (smart "previous" included); skips and scrubbing need a seekable stream
    /// (on-demand or DVR), skipping forward not at the live edge.
    public func isEnabled(_ command: RemoteCommand.Kind) -> Bool {
        guard currentItem != nil else { return false }
        switch command {
        case .play, .pause, .togglePlayPause: return true
        case .nextTrack: return canAdvanceToNext()
        case .previousTrack: return canReturnToPrevious()
        case .skipForward: return canSkipForward()
        case .skipBackward: return canSkipBackward()
        case .changePlaybackPosition: return streamType == .onDemand || streamType == .dvr
        }
    }

    /// Carries out a remote command.
    @discardableResult
    public func handle(_ command: RemoteCommand) -> RemoteCommandStatus {
        guard currentItem != nil else { return .noActionableNowPlayingItem }
        guard isEnabled(command.kind) else { return .disabled }
        switch command {
        case .play: play()
        case .pause: pause()
        case .togglePlayPause: togglePlayPause()
        case .nextTrack: advanceToNext()
        case .previousTrack: returnToPrevious()
        case .skipForward: skipForward()
        case .skipBackward: skipBackward()
        case .changePlaybackPosition(let position): seek(.at(position))
        }
        return .success
    }

    /// Sends a remote command to the active player.
    @discardableResult
    public static func handleRemoteCommand(_ command: RemoteCommand) -> RemoteCommandStatus {
        active?.handle(command) ?? .noActionableNowPlayingItem
    }
}
