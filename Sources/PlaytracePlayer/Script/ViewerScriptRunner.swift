public import PlaytraceCore

/// Performs a ``ViewerScript`` on a Player: each action when the playhead is at or past its time, after the one
/// before it is done. Its ``ViewerScriptTracker`` (one per item) sees the playhead through progress reports that end
/// exactly at the next action's time, so that actions happen when the playhead gets there, not at the next check.
///
/// ```swift
/// let runner = ViewerScriptRunner(script: try ViewerScript(parsing: "at 10 pause 2"), clock: clock)
/// let item = PlayerItem.simple(url: url, trackerAdapters: [ViewerScriptTracker.adapter(configuration: runner)])
/// ```
@MainActor
public final class ViewerScriptRunner {
    public let script: ViewerScript
    /// The next step to perform (`script.steps.count` once all are done).
    public private(set) var nextStep = 0
    /// Whether a `stop` action ran: the session should end.
    public private(set) var stopRequested = false
    /// Told of each action as it is performed, with the playhead then.
    public var onAction: (@MainActor (ViewerScript.Step, MediaTime) -> Void)?
    private let stopwatch: Stopwatch
    /// Whether the step before the next one is still under way (a pause not over, a seek not completed).
    private var isBusy = false
    private var resumeTask: Task<Void, Never>?
    /// A `skip` under way: where the playhead was when it was asked, and whether an interstitial has played since.
    private var skipWait: (since: MediaTime, sawInterstitial: Bool)?
    /// How far the primary may play past a `skip`'s time without an interstitial before the step is done (nothing
    /// to skip).
    static let skipWindow = MediaTime(seconds: 1)

    public init(script: ViewerScript, clock: any Clock<Duration> = ContinuousClock()) {
        self.script = script
        stopwatch = Stopwatch(clock: clock)
    }

    /// The next step, while it waits for its playhead.
    private var pendingStep: ViewerScript.Step? {
        guard !isBusy, !stopRequested, nextStep < script.steps.count else { return nil }
        return script.steps[nextStep]
    }

    /// Where the next action waits: a time of the primary, or of the interstitial it names.
    var pendingBoundary: PlaybackBoundary? {
        guard let step = pendingStep else { return nil }
        let time = MediaTime(seconds: step.time)
        return step.interstitial.map { .interstitial(id: $0, time: time) } ?? .time(time)
    }

    /// The primary's playhead is at `time`, or the playhead of the interstitial `interstitial` (its date range's
    /// ID): performs the steps whose time has come on that timeline.
    func playhead(at time: MediaTime, in interstitial: String? = nil, on player: Player) {
        while let step = pendingStep, step.interstitial == interstitial, time.seconds >= step.time {
            nextStep += 1
            perform(step, at: time, on: player)
        }
    }

    private func perform(_ step: ViewerScript.Step, at time: MediaTime, on player: Player) {
        onAction?(step, time)
        switch step.action {
        case .pause(let seconds):
            isBusy = true
            player.pause()
            let stopwatch = stopwatch
            resumeTask = Task { [weak self, weak player] in
                do { try await stopwatch.sleep(for: .saturating(milliseconds: seconds * 1000)) } catch { return }
                guard let self else { return }
                player?.play()
                self.stepDone(player)
            }
        case .seek(let position):
            isBusy = true
            player.seek(.at(MediaTime(seconds: position))) { [weak self, weak player] _ in self?.stepDone(player) }
        case .mute: player.isMuted = true
        case .unmute: player.isMuted = false
        case .rate(let rate): player.setDesiredPlaybackSpeed(rate)
        case .skip:
            // The interstitial that plays (or begins within a second) is skipped as soon as it allows; the step is
            // done when it ends.
            isBusy = true
            skipWait = (time, player.currentInterstitial != nil)
            player.skipInterstitial()
        case .stop:
            stopRequested = true
            resumeTask?.cancel()
        }
        player.updateProgressBoundaries()
    }

    /// A progress report while a `skip` waits: asks for the skip again while an interstitial plays (its skip
    /// control may appear later), and ends the step once it is over, or when none came.
    func progressed(_ progress: PlaybackProgress, on player: Player) {
        guard var wait = skipWait else { return }
        if progress.interstitial != nil {
            wait.sawInterstitial = true
            skipWait = wait
            player.skipInterstitial()
        } else if wait.sawInterstitial || progress.to - wait.since > Self.skipWindow {
            skipWait = nil
            stepDone(player)
        }
    }

    private func stepDone(_ player: Player?) {
        isBusy = false
        player?.updateProgressBoundaries()
        guard let player else { return }
        if let interstitial = player.currentInterstitial {
            playhead(at: interstitial.time, in: interstitial.event.id, on: player)
        }
        playhead(at: player.time, on: player)
    }
}

/// The tracker that lets a ``ViewerScriptRunner`` follow an item's playhead.
public final class ViewerScriptTracker: PlayerItemTracker {
    private let runner: ViewerScriptRunner
    private weak var player: Player?
    private var isEnabled = false

    public init(configuration: ViewerScriptRunner) { runner = configuration }

    public func enable(for player: Player) {
        self.player = player
        isEnabled = true
    }

    public func updateMetadata(to metadata: Void) {}
    public func updateProperties(to properties: TrackerProperties) {}
    public func disable(with properties: TrackerProperties) { isEnabled = false }

    public var observesProgress: Bool { true }
    public var progressBoundaries: [PlaybackBoundary] { runner.pendingBoundary.map { [$0] } ?? [] }

    public func updateProgress(_ progress: PlaybackProgress) {
        guard isEnabled, let player else { return }
        runner.progressed(progress, on: player)
        if let interstitial = progress.interstitial {
            runner.playhead(at: interstitial.to, in: interstitial.event.id, on: player)
        }
        runner.playhead(at: progress.to, on: player)
    }
}
