public import Observation

/// Decides whether a player's controls should be visible, the way users expect:
/// - a tap toggles them (``toggle()``);
/// - while playing they hide by themselves after ``delay`` without interaction (``reset()`` restarts the wait);
/// - they never hide by themselves while paused or while VoiceOver runs, and they appear when playback is paused
///   from outside (another app, the lock screen) or ends.
///
/// It follows its ``player``'s playback state and does nothing without a player (Pillarbox's rule). The logic is
/// platform-neutral and runs on an injected clock; a SwiftUI binding only sets the player and VoiceOver's status.
///
/// ```swift
/// let tracker = VisibilityTracker(delay: .seconds(3))
/// tracker.player = player   // controls hide 3 s into playback unless the user interacts
/// tracker.reset()           // the user touched the screen: wait 3 s again
/// ```
@MainActor
@Observable
public final class VisibilityTracker {
    /// The player whose playback state the controls follow (none: the tracker does nothing).
    public var player: Player? {
        didSet {
            guard player !== oldValue else { return }
            observationGeneration += 1
            if let player { observe(player, generation: observationGeneration) } else { update(playbackState: .idle) }
        }
    }

    /// Whether the user interface should be hidden.
    public private(set) var isUserInterfaceHidden: Bool

    /// Whether VoiceOver runs: controls then never hide by themselves, and they show when it starts (an Apple
    /// adapter sets it from `UIAccessibility`).
    public var isVoiceOverRunning = false {
        didSet {
            guard isVoiceOverRunning != oldValue else { return }
            if isVoiceOverRunning, player != nil { show() } else { scheduleHide() }
        }
    }

    /// How long controls stay visible without interaction while playing.
    public let delay: Duration

    @ObservationIgnored private let clock: any Clock<Duration>
    @ObservationIgnored private var hideTask: Task<Void, Never>?
    @ObservationIgnored private var playbackState = PlaybackState.idle
    @ObservationIgnored private var observationGeneration = 0

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

    /// Shows hidden controls, or hides visible ones (nothing without a player).
    public func toggle() {
        if isUserInterfaceHidden { show() } else { hide() }
    }

    /// Shows the controls (they hide again after ``delay`` while playing; nothing without a player).
    public func show() {
        guard player != nil else { return }
        isUserInterfaceHidden = false
        scheduleHide()
    }

    /// Hides the controls (nothing without a player).
    public func hide() {
        guard player != nil else { return }
        hideTask?.cancel()
        hideTask = nil
        isUserInterfaceHidden = true
    }

    /// Restarts the wait before visible controls hide by themselves (call it on user interaction).
    public func reset() {
        guard player != nil, !isUserInterfaceHidden else { return }
        scheduleHide()
    }

    /// Follows the player's playback state until the player changes.
    private func observe(_ player: Player, generation: Int) {
        let state = withObservationTracking { player.playbackState } onChange: { [weak self] in
            Task { @MainActor [weak self, weak player] in
                guard let self, let player, generation == self.observationGeneration else { return }
                self.observe(player, generation: generation)
            }
        }
        update(playbackState: state)
    }

    /// Follows a playback state.
    func update(playbackState: PlaybackState) {
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
        guard playbackState == .playing, delay > .zero, !isVoiceOverRunning else { return }
        let clock = self.clock
        let delay = self.delay
        hideTask = Task { [weak self] in
            do { try await clock.sleep(for: delay) } catch { return }
            guard let self, !Task.isCancelled, self.playbackState == .playing, !self.isVoiceOverRunning else { return }
            self.isUserInterfaceHidden = true
            self.hideTask = nil
        }
    }
}
