public import Observation
public import PlaytraceCore

/// Follows a player's progress at a chosen interval, and lets a user change it interactively (a slider).
///
/// Only the views that show progress observe it, so a player's user interface is not refreshed at every tick.
/// While the user interacts (``isInteracting``), the player is paused and resumes afterwards if it was playing;
/// with ``SeekBehavior/immediate`` every change of ``progress`` seeks (smoothly: the engine gets the first and
/// the latest position), with ``SeekBehavior/deferred`` only the final one does, when the interaction ends.
///
/// ```swift
/// let tracker = ProgressTracker(interval: .milliseconds(100))
/// tracker.player = player
/// tracker.isInteracting = true    // the user grabs the slider
/// tracker.progress = 0.5          // drags it
/// tracker.isInteracting = false   // lets go: playback resumes at the middle
/// ```
@MainActor
@Observable
public final class ProgressTracker {
    /// When changes of ``progress`` seek.
    public enum SeekBehavior: String, Sendable, Hashable {
        /// At every change.
        case immediate
        /// When the interaction ends.
        case deferred
    }

    /// The player followed (none: no progress).
    public var player: Player? {
        didSet {
            guard player !== oldValue else { return }
            isInteracting = false
            update()
        }
    }

    /// The playhead within ``range``, 0…1 (0 without a range).
    public var progress: Double {
        get { storedProgress }
        set { setProgress(newValue) }
    }

    /// Whether the user is changing the progress.
    public var isInteracting = false {
        didSet {
            guard isInteracting != oldValue else { return }
            isInteracting ? beginInteraction() : endInteraction()
        }
    }

    /// The time that ``progress`` stands for.
    public private(set) var time = MediaTime.zero
    /// The range progress is measured in: the player's seekable range.
    public private(set) var range = MediaTimeRange.empty

    /// Whether there is a range to show progress in.
    public var isProgressAvailable: Bool { range.duration.seconds > 0 }

    public let interval: Duration
    public let seekBehavior: SeekBehavior

    @ObservationIgnored private var storedProgress = 0.0
    @ObservationIgnored private let clock: any Clock<Duration>
    @ObservationIgnored private var updateTask: Task<Void, Never>?
    @ObservationIgnored private var resumesAfterInteraction = false

    /// Creates a tracker.
    /// - Parameters:
    ///   - interval: how often progress is read from the player.
    ///   - seekBehavior: when changes seek.
    ///   - clock: the clock the interval runs on.
    public init(interval: Duration, seekBehavior: SeekBehavior = .immediate, clock: any Clock<Duration> = ContinuousClock()) {
        self.interval = max(interval, .milliseconds(1))
        self.seekBehavior = seekBehavior
        self.clock = clock
        startUpdating()
    }

    isolated deinit { updateTask?.cancel() }

    private func startUpdating() {
        let clock = self.clock
        let interval = self.interval
        updateTask = Task { [weak self] in
            while !Task.isCancelled {
                do { try await clock.sleep(for: interval) } catch { return }
                self?.update()
            }
        }
    }

    /// Reads the player's progress (not while the user interacts).
    private func update() {
        guard !isInteracting else { return }
        guard let player else {
            setIfChanged(time: .zero, range: .empty, progress: 0)
            return
        }
        let range = player.seekableTimeRange
        let time = range.clamp(player.time)
        let progress = range.duration.seconds > 0 ? (time - range.start).seconds / range.duration.seconds : 0
        setIfChanged(time: time, range: range, progress: progress)
    }

    private func setIfChanged(time: MediaTime, range: MediaTimeRange, progress: Double) {
        if self.time != time { self.time = time }
        if self.range != range { self.range = range }
        if storedProgress != progress { storedProgress = progress }
    }

    private func setProgress(_ value: Double) {
        guard isProgressAvailable else { return }
        let progress = value.isFinite ? min(max(value, 0), 1) : 0
        storedProgress = progress
        time = range.start + range.duration * progress
        if !isInteracting || seekBehavior == .immediate {
            player?.seek(.at(time))
        }
    }

    private func beginInteraction() {
        guard let player else { return }
        resumesAfterInteraction = player.playbackState == .playing
        if resumesAfterInteraction { player.pause() }
    }

    private func endInteraction() {
        guard let player else { return }
        if seekBehavior == .deferred, isProgressAvailable { player.seek(.at(time)) }
        if resumesAfterInteraction { player.play() }
        resumesAfterInteraction = false
    }
}
