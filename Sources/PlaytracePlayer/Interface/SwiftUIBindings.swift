#if canImport(SwiftUI)
public import SwiftUI

// Thin SwiftUI adapters: they only connect the platform-neutral trackers (tested on Linux) to a view's life.

public extension View {
    /// Binds a progress tracker to a player for as long as the view is shown.
    ///
    /// ```swift
    /// Slider(value: $progressTracker.progress).bind(progressTracker, to: player)
    /// ```
    func bind(_ progressTracker: ProgressTracker, to player: Player?) -> some View {
        onAppear { progressTracker.player = player }
            .onDisappear { progressTracker.player = nil }
            .onChange(of: player.map(ObjectIdentifier.init)) { _, _ in progressTracker.player = player }
    }

    /// Binds a visibility tracker to a player: it follows the player's playback state.
    ///
    /// ```swift
    /// controls.opacity(visibilityTracker.isUserInterfaceHidden ? 0 : 1).bind(visibilityTracker, to: player)
    /// ```
    func bind(_ visibilityTracker: VisibilityTracker, to player: Player?) -> some View {
        onAppear { visibilityTracker.update(playbackState: player?.playbackState ?? .idle) }
            .onChange(of: player?.playbackState ?? .idle) { _, state in visibilityTracker.update(playbackState: state) }
    }
}
#endif
