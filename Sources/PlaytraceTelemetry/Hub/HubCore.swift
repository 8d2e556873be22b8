import Foundation
import PlaytraceCore

/// OpenAVT's hub rules for a content tracker, with its flaws fixed.
///
/// - A playback begins with its first MediaRequest, PlayerSet or StreamLoad (or a Start without them) after the
///   previous one finished; **everything per playback resets then**: flags, counters, accumulated and time-since
///   values, and a new `playbackId`.
/// - MediaRequest, PlayerSet and StreamLoad pass once per playback; Start once.
/// - PauseBegin needs a started, unpaused, unfinished playback; PauseFinish a pause; BufferBegin/Finish and
///   SeekBegin/Finish pair up.
/// - End, Stop and Next need an unfinished playback. **Before Start they close the abandoned playback** (with
///   `endReason` `abandoned`) instead of being dropped, so abandoned sessions have an end.
/// - Error always passes (`countErrors`).
/// - **A buffer before Start is initial** (part of startup), never a rebuffer; a buffer inside a pause or a seek
///   is flagged (`bufferType` `inBlock`, `inPauseBlock`/`inSeekBlock`), not counted.
/// - Content play time (`accumPlayTime`, `deltaPlayTime`) counts only while content plays: started, not paused,
///   buffering, seeking or in an ad.
/// - A heartbeat (Ping) on the instrument's clock every ``pingInterval`` from Start to the end of the playback,
///   silent while paused.
///
/// Every event that passes carries the playback's counters, accumulated times (ms), block flags, `playbackId` and
/// the time since each earlier action of the playback (`timeSince<Action>`, ms).
public class HubCore: Hub {
    /// The heartbeat interval (30 s by default, as New Relic's).
    public let pingInterval: Duration
    private var pingTasks: [TrackerID: Task<Void, Never>] = [:]
    private weak var instrument: Instrument?

    public init(pingInterval: Duration = .seconds(30)) {
        self.pingInterval = pingInterval
    }

    deinit {
        for task in pingTasks.values { task.cancel() }
    }

    public func instrumentReady(_ instrument: Instrument) {
        self.instrument = instrument
    }

    public func endOfService() {
        for task in pingTasks.values { task.cancel() }
        pingTasks.removeAll()
    }

    public func processEvent(_ event: inout Event, state: inout TrackerState, tracker: TrackerID,
                             instrument: Instrument) -> Bool {
        self.instrument = instrument
        let now = event.time
        accountPlayTime(&state, until: now, event: &event)
        guard accept(&event, state: &state, tracker: tracker, now: now) else { return false }
        decorate(&event, state: &state, now: now)
        return true
    }

    /// The rules: whether the event passes, and what it changes.
    func accept(_ event: inout Event, state: inout TrackerState, tracker: TrackerID, now: Duration) -> Bool {
        let action = event.action
        switch action {
        case .mediaRequest, .playerSet, .streamLoad, .prepareItem, .manifestLoad:
            beginPlaybackIfNeeded(&state, now: now)
            switch action {
            case .mediaRequest:
                guard !state.didMediaRequest else { return false }
                state.didMediaRequest = true
            case .playerSet:
                guard !state.didPlayerSet else { return false }
                state.didPlayerSet = true
            case .streamLoad:
                guard !state.didStreamLoad else { return false }
                state.didStreamLoad = true
            default:
                break
            }
            return true
        case .start:
            beginPlaybackIfNeeded(&state, now: now)
            guard !state.didStart else { return false }
            state.didStart = true
            state.countStarts += 1
            state.playAccountedAt = now
            startPing(for: tracker)
            return true
        case .pauseBegin:
            guard state.didStart, !state.didFinish, !state.isPaused else { return false }
            state.isPaused = true
            state.pauseBegan = now
            return true
        case .pauseFinish:
            guard state.isPaused, let began = state.pauseBegan else { return false }
            state.isPaused = false
            state.accumPauseTime += now - began
            state.pauseBegan = nil
            return true
        case .bufferBegin:
            guard state.playbackID != nil, !state.didFinish, !state.isBuffering else { return false }
            state.isBuffering = true
            state.bufferBegan = now
            state.bufferKind = !state.didStart ? .initial : (state.isPaused || state.isSeeking ? .inBlock : .rebuffer)
            event[.bufferType] = .string(state.bufferKind.rawValue)
            return true
        case .bufferFinish:
            guard state.isBuffering, let began = state.bufferBegan else { return false }
            state.isBuffering = false
            state.accumBufferTime += now - began
            state.bufferBegan = nil
            event[.bufferType] = .string(state.bufferKind.rawValue)
            state.bufferKind = .none
            return true
        case .seekBegin:
            guard state.playbackID != nil, !state.didFinish, !state.isSeeking else { return false }
            state.isSeeking = true
            state.seekBegan = now
            return true
        case .seekFinish:
            guard state.isSeeking, let began = state.seekBegan else { return false }
            state.isSeeking = false
            state.accumSeekTime += now - began
            state.seekBegan = nil
            return true
        case .end, .stop, .next:
            guard state.playbackID != nil, !state.didFinish else { return false }
            let reason = action == .end ? "end" : (action == .stop ? "stop" : "next")
            finish(&state, tracker: tracker, now: now, reason: state.didStart ? reason : "abandoned", event: &event)
            return true
        case .error:
            state.countErrors += 1
            return true
        case .ping:
            return state.didStart && !state.didFinish && !state.isPaused
        default:
            return true
        }
    }

    /// Closes the playback: open blocks are accounted, the heartbeat stops.
    func finish(_ state: inout TrackerState, tracker: TrackerID, now: Duration, reason: String, event: inout Event) {
        if let began = state.pauseBegan { state.accumPauseTime += now - began }
        if let began = state.bufferBegan { state.accumBufferTime += now - began }
        if let began = state.seekBegan { state.accumSeekTime += now - began }
        state.pauseBegan = nil
        state.bufferBegan = nil
        state.seekBegan = nil
        state.isPaused = false
        state.isBuffering = false
        state.isSeeking = false
        state.didFinish = true
        event[.endReason] = .string(reason)
        stopPing(for: tracker)
    }

    private func beginPlaybackIfNeeded(_ state: inout TrackerState, now: Duration) {
        guard state.playbackID == nil || state.didFinish else { return }
        state.beginPlayback(id: UUID().uuidString.lowercased())
        state.requestedAt = now
    }

    /// Adds the content play time since the last event to the playback's total.
    private func accountPlayTime(_ state: inout TrackerState, until now: Duration, event: inout Event) {
        event[.deltaPlayTime] = .int(Self.accountPlayTime(&state, until: now).milliseconds)
    }

    /// Adds the content play time since it was last accounted to the playback's total; returns it.
    @discardableResult
    static func accountPlayTime(_ state: inout TrackerState, until now: Duration) -> Duration {
        var delta = Duration.zero
        if state.isPlayingContent, let since = state.playAccountedAt, now > since { delta = now - since }
        state.accumPlayTime += delta
        state.playAccountedAt = now
        return delta
    }

    /// Adds the playback's state to an event, and records the action's time.
    func decorate(_ event: inout Event, state: inout TrackerState, now: Duration) {
        if let id = state.playbackID { event[.playbackId] = .string(id) }
        event[.countErrors] = .int(state.countErrors)
        event[.countStarts] = .int(state.countStarts)
        event[.countAds] = .int(state.countAds)
        event[.accumPauseTime] = .int(state.accumPauseTime.milliseconds)
        event[.accumBufferTime] = .int(state.accumBufferTime.milliseconds)
        event[.accumSeekTime] = .int(state.accumSeekTime.milliseconds)
        event[.accumPlayTime] = .int(state.accumPlayTime.milliseconds)
        event[.inPauseBlock] = .bool(state.isPaused)
        event[.inSeekBlock] = .bool(state.isSeeking)
        event[.inBufferBlock] = .bool(state.isBuffering)
        event[.inPlaybackBlock] = .bool(state.didStart && !state.didFinish)
        event[.inAdBreakBlock] = .bool(state.inAdBreak)
        event[.inAdBlock] = .bool(state.inAd)
        Self.addTimeSince(&event, state: &state, now: now)
    }

    /// Adds the time since each earlier action of the playback (ms), and records this action's time.
    static func addTimeSince(_ event: inout Event, state: inout TrackerState, now: Duration) {
        let nanoseconds = ActionTimes.nanoseconds(now)
        for entry in state.lastActionTimes where !event.attributes.contains(entry.attribute) {
            event[entry.attribute] = .int(Int((nanoseconds - entry.nanoseconds) / 1_000_000))
        }
        state.lastActionTimes.record(event.action.timeAttribute, nanoseconds: nanoseconds)
    }

    private func startPing(for tracker: TrackerID) {
        stopPing(for: tracker)
        guard let instrument, pingInterval > .zero else { return }
        let clock = instrument.clock
        let interval = pingInterval
        pingTasks[tracker] = Task { [weak instrument] in
            while !Task.isCancelled {
                do { try await clock.sleep(for: interval) } catch { return }
                guard let instrument, !Task.isCancelled else { return }
                instrument.emit(.ping, tracker: tracker)
            }
        }
    }

    private func stopPing(for tracker: TrackerID) {
        pingTasks.removeValue(forKey: tracker)?.cancel()
    }
}

extension Duration {
    /// Whole milliseconds (rounded down).
    var milliseconds: Int {
        let parts = components
        return Int(parts.seconds) * 1_000 + Int(parts.attoseconds / 1_000_000_000_000_000)
    }
}
