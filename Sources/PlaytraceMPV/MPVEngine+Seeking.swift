#if MPV
import PlaytraceCore
import PlaytracePlayer

/// A seek asked of the engine that has not landed yet.
struct PendingSeek {
    var target: MediaTime
    /// Where it may land (its target widened by its tolerances); `nil` when anywhere will do (a live stream loaded
    /// again lands where FFmpeg starts).
    var window: ClosedRange<MediaTime>?
    /// Whether it was sent again, exactly, after landing outside its window (it is sent again once at most).
    var isResent = false
}

/// A seek libmpv never completes (seen under load: a skipped range's jump sent, the same position for minutes) must
/// not hold the item for ever. Each seek the engine sends arms a watchdog: when the seek or jump under way has not
/// landed within the configuration's `seekWatchdogBound`, it is sent once more; when that one has not landed either, the item
/// ends with a non-fatal error that says so.
struct SeekWatchdog {
    /// The watchdog task of the seek sent last (cancelled when another is sent, or the item changes).
    var task: Task<Void, Never>?
    /// Counts the seeks sent: a watchdog acts only on the seek it was armed for.
    var generation = 0
}

extension MPVEngine {
    /// Arms the watchdog for the seek just sent to `target` (`resent`: this is the watchdog's own second send).
    func armSeekWatchdog(for target: MediaTime, resent: Bool) {
        seekWatchdog.task?.cancel()
        seekWatchdog.generation &+= 1
        let generation = seekWatchdog.generation
        let stopwatch = stopwatch
        let bound = configuration.seekWatchdogBound
        seekWatchdog.task = Task { [weak self] in
            do { try await stopwatch.sleep(for: bound) } catch { return }
            await self?.seekDidNotLand(target: target, generation: generation, resent: resent)
        }
    }

    /// Stops watching: the seek landed, or the item is gone.
    func disarmSeekWatchdog() {
        seekWatchdog.task?.cancel()
        seekWatchdog.task = nil
    }

    private func seekDidNotLand(target: MediaTime, generation: Int, resent: Bool) {
        guard generation == seekWatchdog.generation, isFileLoaded, status != .ended,
              pendingSeek != nil || jumpTarget != nil else { return }
        let bound = configuration.seekWatchdogBound.components.seconds
        guard resent else {
            emit(.error(EngineError(kind: .decoding, message: "libmpv's seek to \(target) made no progress in \(bound) s: "
                + "sent again", isFatal: false)))
            sendSeek(to: target, exact: true, resent: true)
            return
        }
        emit(.error(EngineError(kind: .decoding, message: "libmpv's seek to \(target) made no progress in \(bound) s, "
            + "twice: the item ends at \(playhead)", isFatal: false)))
        if pendingSeek != nil { emit(.seekEnded(at: playhead, completed: false)) }
        pendingSeek = nil
        jumpTarget = nil
        closePlayedRange(at: playhead)
        handle.set("pause", "yes")
        status = .ended
        emit(.statusChanged(.ended))
        emit(.ended)
    }
}
#endif
