import PlaytraceCore
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

    /// What now-playing shows for the current item (nil without one). A DVR stream shows its window: the
    /// elapsed time counts from the window's start and the duration is the window's (Pillarbox's rule).
    public var nowPlayingInfo: NowPlayingInfo? {
        guard currentItem != nil else { return nil }
        let isDVR = streamType == .dvr
        let duration: MediaTime? = switch streamType {
        case .onDemand: engineSnapshot.duration
        case .dvr: seekableTimeRange.duration
        case .live, .unknown: nil
        }
        return NowPlayingInfo(
            title: metadata.title, subtitle: metadata.subtitle, artworkSource: metadata.imageSource,
            elapsedTime: isDVR ? time - seekableTimeRange.start : time, duration: duration,
            rate: playbackState == .playing && !isBuffering ? effectivePlaybackSpeed : 0, isLive: streamType == .live,
            chapterTitle: currentChapter?.title)
    }

    /// Whether a remote command applies now, by Pillarbox's rules: playback commands need an item; next and
    /// previous follow the playlist navigation rules (smart "previous" included); skips are off for a playlist of
    /// more than one item (the system shows skips or track changes, not both) and for live streams; skips and
    /// position changes are off after a fatal error. Position changes also need a seekable stream (on-demand or
    /// DVR), where Pillarbox leaves them on for live streams, on which they can do nothing.
    /// - Parameter command: the kind of command.
    public func isEnabled(_ command: RemoteCommand.Kind) -> Bool {
        guard currentItem != nil else { return false }
        let areSkipsEnabled = items.count <= 1 && streamType != .live && error == nil
        switch command {
        case .play, .pause, .togglePlayPause: return true
        case .nextTrack: return canAdvanceToNextItem()
        case .previousTrack: return canReturnToPreviousItem()
        case .skipForward: return areSkipsEnabled && canSkipForward()
        case .skipBackward: return areSkipsEnabled && canSkipBackward()
        case .changePlaybackPosition: return error == nil && (streamType == .onDemand || streamType == .dvr)
        }
    }

    /// Carries out a remote command.
    /// - Parameter command: the command.
    @discardableResult
    public func handle(_ command: RemoteCommand) -> RemoteCommandStatus {
        guard currentItem != nil else { return .noActionableNowPlayingItem }
        guard isEnabled(command.kind) else { return .disabled }
        switch command {
        case .play: play()
        case .pause: pause()
        case .togglePlayPause: togglePlayPause()
        case .nextTrack: advanceToNextItem()
        case .previousTrack: returnToPreviousItem()
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
