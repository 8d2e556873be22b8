public import Observation

/// Decides whether a player's controls should be visible, the way users expect:
/// - a tap toggles them (``toggle()``);
/// - while playing they hide by themselves after ``delay`` without interaction (``reset()`` restarts the wait);
/// - they never hide by themselves while paused, and they appear when playback is paused from outside (another
///   app, the lock screen) or ends.
///
/// The logic is platform-neutral and runs on an injected clock; a SwiftUI binding only forwards the player's
/// playback state to ``update(playbackState:)``.
///
/// ```swift
/// let tracker = VisibilityTracker(delay: .seconds(3))
/// tracker.update(playbackState: .playing)   // controls hide after 3 s unless the user interacts
/// tracker.reset()                           // the user touched the screen: wait 3 s again
/// ```
@MainActor
@Observable
public final class VisibilityTracker {
    /// Whether the user interface should be hidden.
    public private(set) var isUserInterfaceHidden: Bool

    /// How long controls stay visible without interaction while playing.
    public let delay: Duration

    @ObservationIgnored private let clock: any Clock<Duration>
    @ObservationIgnored private var hideTask: Task<Void, Never>?
    @ObservationIgnored private var playbackState = PlaybackState.idle

    /// Creates a tracker.
    /// - Parameters:
    ///   - delay: how long controls stay visible without interaction while playing (3 s by default).
    ///   - isUserInterfaceHidden: the initial visibility.
    ///   - clock: the clock the delay runs on (a test clock in tests).
    public init(delay: Duration = .seconds(3), isUserInterfaceHidden: Bool = false,
                clock: any Clock<Duration> = ContinuousClock()) {
        self.delay = max(delay, .zero)
        self.isUserInterfaceHidden = isUserInterfaceHidden
        self.clock = clock
    }

    isolated deinit { hideTask?.cancel() }

    /// Shows hidden controls, or hides visible ones.
    public func toggle() {
        if isUserInterfaceHidden { show() } else { hide() }
    }

    /// Shows the controls (they hide again after ``delay`` while playing).
    public func show() {
        isUserInterfaceHidden = false
        scheduleHide()
    }

    /// Hides the controls.
    public func hide() {
        hideTask?.cancel()
        hideTask = nil
        isUserInterfaceHidden = true
    }

    /// Restarts the wait before visible controls hide by themselves (call it on user interaction).
    public func reset() {
        guard !isUserInterfaceHidden else { return }
        scheduleHide()
    }

    /// Follows the player's playback state.
    public func update(playbackState: PlaybackState) {
        guard playbackState != self.playbackState else { return }
        self.playbackState = playbackState
        switch playbackState {
        case .playing:
            if !isUserInterfaceHidden { scheduleHide() }
        case .paused, .ended:
            hideTask?.cancel()
            hideTask = nil
            isUserInterfaceHidden = false
        case .idle:
            hideTask?.cancel()
            hideTask = nil
        }
    }

    private func scheduleHide() {
        hideTask?.cancel()
        hideTask = nil
        guard playbackState == .playing, delay > .zero else { return }
        let clock = self.clock
        let delay = self.delay
        hideTask = Task { [weak self] in
            do { try await clock.sleep(for: delay) } catch { return }
            guard let self, !Task.isCancelled, self.playbackState == .playing else { return }
            self.isUserInterfaceHidden = true
            self.hideTask = nil
        }
    }
}
