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
///   buffering, seeking or in an ad. **A content tracker's own AdBreakBegin/AdBreakFinish** (its player playing an
///   interstitial or a stitched break the stream signals) pair up and stop content time in between.
/// - A heartbeat (Ping) on the instrument's clock every ``pingInterval`` from Start to the end of the playback,
///   silent while paused.
///
/// Every event that passes carries the playback's counters, accumulated times (ms), block flags, `playbackId` and
/// the time since each earlier action of the playback (`timeSince<Action>`, ms), as its ``Event/playback``
/// snapshot.
public class HubCore: Hub {
    /// The heartbeat interval (30 s by default, as New Relic's).
    public let pingInterval: Duration
    /// Each tracker's heartbeat (kept while it runs, so that the next playback reuses it).
    private var pingLoops: [TrackerID: PingLoop] = [:]
    /// Draws playback ids.
    private var random = FastRandom()

    public init(pingInterval: Duration = .seconds(30)) {
        self.pingInterval = pingInterval
    }

    deinit {
        for loop in pingLoops.values { loop.end() }
    }

    public func endOfService() {
        for loop in pingLoops.values { loop.end() }
        pingLoops.removeAll()
    }

    public func processEvent(_ event: inout Event, state: inout TrackerState, tracker: TrackerID,
                             instrument: Instrument) -> Bool {
        let now = event.timeNanoseconds
        Self.accountPlayTime(&state, until: now)
        guard accept(&event, state: &state, tracker: tracker, instrument: instrument, now: now) else { return false }
        decorate(&event, state: &state, now: now)
        return true
    }

    /// The rules: whether the event passes, and what it changes.
    func accept(_ event: inout Event, state: inout TrackerState, tracker: TrackerID, instrument: Instrument,
                now: Int64) -> Bool {
        let action = event.action.standardAction
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
            state.playAccounted = now
            startPing(for: tracker, instrument: instrument)
            return true
        case .pauseBegin:
            guard state.didStart, !state.didFinish, !state.isPaused else { return false }
            state.isPaused = true
            state.pauseStart = now
            return true
        case .pauseFinish:
            guard state.isPaused, let began = state.pauseStart else { return false }
            state.isPaused = false
            state.pauseTotal += now - began
            state.pauseStart = nil
            return true
        case .bufferBegin:
            guard state.playbackIdentifier != nil, !state.didFinish, !state.isBuffering else { return false }
            state.isBuffering = true
            state.bufferStart = now
            state.bufferKind = !state.didStart ? .initial : (state.isPaused || state.isSeeking ? .inBlock : .rebuffer)
            event[.bufferType] = .string(state.bufferKind.rawValue)
            return true
        case .bufferFinish:
            guard state.isBuffering, let began = state.bufferStart else { return false }
            state.isBuffering = false
            state.bufferTotal += now - began
            state.bufferStart = nil
            event[.bufferType] = .string(state.bufferKind.rawValue)
            state.bufferKind = .none
            return true
        case .seekBegin:
            guard state.playbackIdentifier != nil, !state.didFinish, !state.isSeeking else { return false }
            state.isSeeking = true
            state.seekStart = now
            return true
        case .seekFinish:
            guard state.isSeeking, let began = state.seekStart else { return false }
            state.isSeeking = false
            state.seekTotal += now - began
            state.seekStart = nil
            return true
        case .end, .stop, .next:
            guard state.playbackIdentifier != nil, !state.didFinish else { return false }
            let reason = action == .end ? "end" : (action == .stop ? "stop" : "next")
            finish(&state, tracker: tracker, now: now, reason: state.didStart ? reason : "abandoned", event: &event)
            return true
        case .adBreakBegin:
            guard state.playbackIdentifier != nil, !state.didFinish, !state.inStreamBreak else { return false }
            state.inStreamBreak = true
            return true
        case .adBreakFinish:
            guard state.inStreamBreak else { return false }
            state.inStreamBreak = false
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
    func finish(_ state: inout TrackerState, tracker: TrackerID, now: Int64, reason: String, event: inout Event) {
        if let began = state.pauseStart { state.pauseTotal += now - began }
        if let began = state.bufferStart { state.bufferTotal += now - began }
        if let began = state.seekStart { state.seekTotal += now - began }
        state.pauseStart = nil
        state.bufferStart = nil
        state.seekStart = nil
        state.isPaused = false
        state.isBuffering = false
        state.isSeeking = false
        state.didFinish = true
        event[.endReason] = .string(reason)
        stopPing(for: tracker)
    }

    private func beginPlaybackIfNeeded(_ state: inout TrackerState, now: Int64) {
        guard state.playbackIdentifier == nil || state.didFinish else { return }
        state.beginPlayback(identifier: .uuid(.random(using: &random)))
        state.requested = now
    }

    /// Adds the content play time since it was last accounted to the playback's total. An event that passes reports
    /// it (``decorate(_:state:now:)``); time accounted while an event is dropped, or by an ads tracker's event, waits
    /// for the next one.
    static func accountPlayTime(_ state: inout TrackerState, until now: Int64) {
        if state.isPlayingContent, let since = state.playAccounted, now > since { state.playTotal += now - since }
        state.playAccounted = now
    }

    /// Adds the playback's state to an event (``Event/playback``), and records the action's time. Its
    /// `deltaPlayTime` is the content play time no earlier event reported, so that the deltas of a playback add up to
    /// its `accumPlayTime`, to the millisecond.
    func decorate(_ event: inout Event, state: inout TrackerState, now: Int64) {
        let total = Self.milliseconds(state.playTotal)
        // Written in place: a snapshot built apart and then assigned would count references to its id and
        // time list twice.
        event.playback.carried = PlaybackSnapshot.carryingAll
        event.playback.playbackIdentifier = state.playbackIdentifier
        event.playback.countErrors = state.countErrors
        event.playback.countStarts = state.countStarts
        event.playback.countAds = state.countAds
        event.playback.accumPauseTime = Self.milliseconds(state.pauseTotal)
        event.playback.accumBufferTime = Self.milliseconds(state.bufferTotal)
        event.playback.accumSeekTime = Self.milliseconds(state.seekTotal)
        event.playback.accumPlayTime = total
        event.playback.deltaPlayTime = total - state.playReportedMilliseconds
        state.playReportedMilliseconds = total
        event.playback.inPauseBlock = state.isPaused
        event.playback.inSeekBlock = state.isSeeking
        event.playback.inBufferBlock = state.isBuffering
        event.playback.inPlaybackBlock = state.didStart && !state.didFinish
        event.playback.inAdBreakBlock = state.inAdBreak
        event.playback.inAdBlock = state.inAd
        if state.playbackIdentifier == nil { event.playback.carried &= ~(1 << UInt64(Attribute.ID.playbackId)) }
        Self.recordTime(of: event.action, in: &event.playback, state: &state, now: now)
    }

    /// Records the time of the event's action in the playback, and gives the snapshot the time since each earlier
    /// action. The snapshot shares the state's list (see ``PlaybackSnapshot``): recording first keeps it unshared
    /// while it changes.
    static func recordTime(of action: Action, in snapshot: inout PlaybackSnapshot, state: inout TrackerState,
                           now nanoseconds: Int64) {
        let attribute = action.timeAttribute
        snapshot.times.previous = state.lastActionTimes.record(attribute, nanoseconds: nanoseconds)
        snapshot.times.current = attribute.id
        snapshot.times.now = nanoseconds
        snapshot.times.times = state.lastActionTimes
    }

    private func startPing(for tracker: TrackerID, instrument: Instrument) {
        guard pingInterval > .zero else { return }
        if let loop = pingLoops[tracker] {
            loop.start(instrument: instrument)
            return
        }
        // A new loop: forget those that ended (trackers gone, or idle for an interval).
        pingLoops = pingLoops.filter { $0.value.isRunning }
        let loop = PingLoop(interval: pingInterval, tracker: tracker)
        pingLoops[tracker] = loop
        loop.start(instrument: instrument)
    }

    private func stopPing(for tracker: TrackerID) {
        pingLoops[tracker]?.stop()
    }
}

extension HubCore {
    /// Whole milliseconds of nanoseconds (rounded down).
    @inline(__always)
    static func milliseconds(_ nanoseconds: Int64) -> Int { Int(nanoseconds / 1_000_000) }
}

extension Duration {
    /// Whole milliseconds (rounded down).
    var milliseconds: Int {
        let parts = components
        return Int(parts.seconds) * 1_000 + Int(parts.attoseconds / 1_000_000_000_000_000)
    }
}
