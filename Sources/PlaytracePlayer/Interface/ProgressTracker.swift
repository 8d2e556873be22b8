public import Foundation
public import Observation
public import PlaytraceCore

/// Follows a player's progress at a chosen interval, and lets a user change it interactively (a slider).
///
/// Only the views that show progress observe it, so a player's user interface is not refreshed at every tick.
/// While the user interacts (``isInteracting``), video is paused and resumes afterwards if it was playing (audio
/// plays on: there is no picture to scrub); with ``SeekBehavior/immediate`` every change of ``progress`` seeks
/// (smoothly: the engine gets the first and the latest position), with ``SeekBehavior/deferred`` only the final one
/// does, when the interaction ends. When ``player`` changes during an interaction, the interaction moves to the new
/// player: the old one resumes and the new one pauses (Pillarbox's rules).
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
            // On every assignment, the same player included (as Pillarbox): mid-drag, the player it paused is resumed
            // and the assigned one paused, even when something played it meanwhile.
            if isInteracting {
                resumePlayback(of: oldValue)
                pausePlayback(of: player)
            }
            if player !== oldValue { update() }
        }
    }

    /// The playhead within ``range`` (0 without a range).
    public var progress: Double {
        get { storedProgress }
        set { setProgress(newValue) }
    }

    /// Whether the user is changing the progress.
    public var isInteracting = false {
        didSet {
            guard isInteracting != oldValue else { return }
            isInteracting ? pausePlayback(of: player) : endInteraction()
        }
    }

    /// The time that ``progress`` stands for.
    public private(set) var time = MediaTime.zero
    /// The range ``progress`` moves in: 0…1, or 0…0 when there is nothing to track (Pillarbox's `range`).
    public var range: ClosedRange<Double> { isProgressAvailable ? 0...1 : 0...0 }
    /// The time range progress is measured in: the player's seekable range.
    public private(set) var timeRange = MediaTimeRange.empty

    /// Whether there is a range to show progress in.
    public var isProgressAvailable: Bool { timeRange.duration.seconds > 0 }

    /// The program-date-time that ``progress`` stands for, when the stream has dates.
    public func date() -> Date? {
        guard let player, let date = player.date else { return nil }
        return (date + (time - player.time)).date
    }

    public let interval: Duration
    public let seekBehavior: SeekBehavior

    @ObservationIgnored private var storedProgress = 0.0
    @ObservationIgnored private let clock: any Clock<Duration>
    @ObservationIgnored private var updateTask: Task<Void, Never>?
    /// The player that the interaction paused, to resume at its end.
    @ObservationIgnored private weak var pausedPlayer: Player?

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
            setIfChanged(time: .zero, timeRange: .empty, progress: 0)
            return
        }
        let timeRange = player.seekableTimeRange
        let time = timeRange.clamp(player.time)
        let progress = timeRange.duration.seconds > 0 ? (time - timeRange.start).seconds / timeRange.duration.seconds : 0
        setIfChanged(time: time, timeRange: timeRange, progress: progress)
    }

    private func setIfChanged(time: MediaTime, timeRange: MediaTimeRange, progress: Double) {
        if self.time != time { self.time = time }
        if self.timeRange != timeRange { self.timeRange = timeRange }
        if storedProgress != progress { storedProgress = progress }
    }

    private func setProgress(_ value: Double) {
        guard isProgressAvailable else { return }
        let progress = value.isFinite ? min(max(value, 0), 1) : 0
        storedProgress = progress
        time = timeRange.start + timeRange.duration * progress
        if !isInteracting || seekBehavior == .immediate {
            player?.seek(.at(time))
        }
    }

    /// Pauses a player for the interaction when it plays video (audio plays on while the user scrubs).
    private func pausePlayback(of player: Player?) {
        guard let player, player.playbackState == .playing, player.mediaType != .audio else { return }
        player.pause()
        pausedPlayer = player
    }

    /// Resumes a player the interaction paused.
    private func resumePlayback(of player: Player?) {
        guard let player, player === pausedPlayer else { return }
        pausedPlayer = nil
        player.play()
    }

    private func endInteraction() {
        if seekBehavior == .deferred, isProgressAvailable { player?.seek(.at(time)) }
        resumePlayback(of: player)
    }
}
