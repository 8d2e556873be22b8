#if canImport(SwiftUI)
public import SwiftUI
#if canImport(UIKit) && !os(watchOS)
import Combine
import UIKit
#endif

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

    /// Binds a visibility tracker to a player: it follows the player's playback state (and, on iOS, VoiceOver).
    ///
    /// ```swift
    /// controls.opacity(visibilityTracker.isUserInterfaceHidden ? 0 : 1).bind(visibilityTracker, to: player)
    /// ```
    func bind(_ visibilityTracker: VisibilityTracker, to player: Player?) -> some View {
        onAppear {
            visibilityTracker.player = player
            #if canImport(UIKit) && !os(watchOS)
            visibilityTracker.isVoiceOverRunning = UIAccessibility.isVoiceOverRunning
            #endif
        }
        .onChange(of: player.map(ObjectIdentifier.init)) { _, _ in visibilityTracker.player = player }
        #if canImport(UIKit) && !os(watchOS)
        .onReceive(NotificationCenter.default.publisher(for: UIAccessibility.voiceOverStatusDidChangeNotification)) { _ in
            visibilityTracker.isVoiceOverRunning = UIAccessibility.isVoiceOverRunning
        }
        #endif
    }

    /// Binds a skip tracker to a player.
    ///
    /// ```swift
    /// video.onTapGesture(count: 2) { skipTracker.requestSkip(.forward) }.bind(skipTracker, to: player)
    /// ```
    func bind(_ skipTracker: SkipTracker, to player: Player?) -> some View {
        onAppear { skipTracker.player = player }
            .onChange(of: player.map(ObjectIdentifier.init)) { _, _ in skipTracker.player = player }
    }
}
#endif
