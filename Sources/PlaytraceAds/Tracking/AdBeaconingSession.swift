public import Foundation
public import Observation
public import PlaytraceCore
public import PlaytraceNetwork
public import PlaytracePlayer

/// The observable state of client-side ad tracking for one playback: the breaks with each event's reporting state,
/// what the metadata covers, the beacons fired, the errors and a bounded log; and the machinery that fires and
/// delivers the beacons, in types of their own (the ``BeaconScheduler`` decides what fires; a prepared beacon fills
/// its macros; `BeaconStoreQueue` writes it; the courier's reports settle it; restoration, VAST and the audit keep
/// their own state).
///
/// ``start(mediaUrl:provider:)`` sets the ad session up with a provider (``HarmonicAdProvider``,
/// ``MediaTailorAdProvider``), which then delivers metadata (``apply(_:)``) for as long as the session runs; the
/// playhead's movements arrive with ``observe(_:)`` (from ``AdTracker``, which follows a Player item);
/// player-initiated events with ``report(_:at:)``. Each fired event becomes one `Outbox` message per signaling URL
/// (macros filled, an idempotency key per occurrence and URL that the outbox remembers after delivery), delivered by
/// a ``BeaconCourier`` whose reports move the event to `done`, or to `failed` when a URL failed for good. A session
/// started again after the app was killed reads back from the outbox what it had fired: nothing is fired twice,
/// and what was still waiting is delivered.
///
/// ```swift
/// let session = AdBeaconingSession(outbox: outbox)
/// guard let info = await session.start(mediaUrl: url, provider: HarmonicAdProvider(transport: transport)) else {
///     print(session.latestError ?? "")
///     return
/// }
/// player.append(.simple(url: info.manifestUrl, trackerAdapters: [AdTracker.adapter(configuration: session)]))
/// ```
@MainActor
@Observable
public final class AdBeaconingSession {
    /// The breaks, in order, with every event's reporting state.
    public internal(set) var adPods: [AdPod] = []
    /// Why breaks and ads did not play out (skipped, no ad, media failed), as the player told.
    public internal(set) var fates = AdFates()
    /// What the latest metadata response covered.
    public private(set) var latestDataRange: DataRange?
    /// What the metadata's times count from.
    public private(set) var timeline: AdTimeline = .programDateTime
    /// The log: its latest messages and the last error said.
    private(set) var messageLog = AdSessionLog()
    /// The last error said, if any.
    public var latestError: String? { messageLog.latestError }
    /// The most recent log messages (at most ``logLimit``).
    public var logMessages: [AdLogMessage] { messageLog.messages }
    /// How long a break stays listed after its end once the metadata no longer lists it (Harmonic's
    /// `keepPodsForMs`, 2 h).
    public var podRetention: AdTime = 2 * 3_600_000 { didSet { merger.retention = podRetention } }
    /// ``podRetention`` in milliseconds, by Harmonic's name.
    public var keepPodsForMs: Double {
        get { podRetention.milliseconds }
        set { podRetention = AdTime(milliseconds: newValue) }
    }
    /// `[LIMITADTRACKING]`.
    public var limitAdTracking = false
    /// Whether the outbox remembers each beacon's key once delivered (on by default), so that a run of the session
    /// started again after the app was killed does not fire it twice (``resume(_:)``). A session never resumed (a
    /// probe's simulated viewer) turns it off: the keys would be kept for the outbox's maximum age for nothing.
    public var remembersDeliveredBeacons = true
    /// `[CLIENTUA]`: the app's player and this library, as `player/version plugin/version`; `nil` sends `-1`.
    public var clientUA: String?
    /// Every beacon fired so far, in order, with its delivery, found by delivery key.
    var book = BeaconBook()
    /// Every beacon fired so far, in order, with its delivery: what a summary reports.
    public var beacons: [BeaconRecord] { book.records }
    /// The URL given to ``start(mediaUrl:provider:)``.
    public internal(set) var mediaUrl: URL?
    /// Whether the provider may ask the server to initialise the session (Harmonic's `isInitRequest`; on by
    /// default).
    public var isInitRequest = true
    /// The session's URLs, once set up.
    public internal(set) var sessionInfo: SessionInfo?
    /// The time between two metadata polls (Harmonic's `metadataUpdateInterval`).
    public var metadataUpdateInterval: Duration = .seconds(4)
    /// What the ad tracking knows of the player.
    public internal(set) var playerObserver = AdPlayerObserver()
    /// Metadata requests under way, and those that failed so far.
    public internal(set) var metadataRequestsInFlight = 0
    public internal(set) var metadataFailures = 0
    /// Metadata requests answered or failed so far.
    public internal(set) var metadataAttempts = 0
    /// Events found already handed over to the outbox by an earlier run of the session (``resume(_:)``).
    public var restoredBeaconCount: Int { restoredCount }
    var restoredCount = 0

    /// How long ``report(_:)`` waits for the first attempt at its beacons before answering ``AdReportOutcome/queued``.
    public var reportTimeout: Duration = .seconds(10)

    /// The most log messages kept.
    public var logLimit: Int { messageLog.limit }

    @ObservationIgnored private var merger = AdPodMerger()
    @ObservationIgnored var scheduler = BeaconScheduler()
    /// The breaks added with ``addPods(_:)`` (no metadata provider lists them), by ID.
    @ObservationIgnored var addedPodIDs: Set<String> = []
    /// The breaks retired (``retireBreaks(endingBefore:)``), each with its end, by ID: metadata that lists one again
    /// does not bring it back (its events would fire twice). Forgotten once older than the played history.
    @ObservationIgnored var retiredPodEnds: [String: AdTime] = [:]
    /// How many breaks were retired (``retireBreaks(endingBefore:)``), with how many beacons.
    public internal(set) var retiredBreakCount = 0
    public internal(set) var retiredBeaconCount = 0
    /// The VAST ads' macro values and error URLs, the chains resolved, the error reports fired.
    @ObservationIgnored var vast = VASTLedger(chainLimit: 500)
    /// The VAST responses resolved (``record(_:)``), the latest of each break, oldest first; at most
    /// ``vastChainLimit``.
    public var vastChains: [VASTChainRecord] { vast.chains }
    /// How many VAST responses were resolved past ``vastChainLimit`` (the oldest records were dropped for them).
    public var vastChainsDropped: Int { vast.chainsDropped }
    /// How many VAST resolutions the session keeps.
    public var vastChainLimit: Int { vast.chainLimit }
    /// Where the playhead was last seen in each interstitial, on the ad timeline.
    @ObservationIgnored var lastInterstitialPositions: [String: AdTime] = [:]
    /// The interstitials the stream schedules, as the player last told (``updatePlayer(_:)``).
    @ObservationIgnored var interstitialSchedule: [InterstitialEvent] = [] {
        didSet { if interstitialSchedule != oldValue { classifyPods() } }
    }
    @ObservationIgnored let outbox: Outbox
    /// Writes the beacons fired so far to the outbox, off the main actor, each firing's after the one before
    /// (``dispatch(_:)``, ``beaconsStored()``).
    @ObservationIgnored let storeQueue: BeaconStoreQueue
    @ObservationIgnored let wallClock: WallClock
    /// The ad session's identifier in delivery keys: ``SessionInfo/id`` once set up, a random one before.
    @ObservationIgnored var identity = "local-\(RandomUUID.lowercasedString())"
    /// What the outbox keys of this session's beacons begin with (``BeaconAttempt/key``): a courier shared by many
    /// sessions routes each report by it. It changes once, when the session is set up with its server's id.
    public var beaconKeyPrefix: String { BeaconFiring.keyPrefix(session: identity) }
    /// Beacons fired whose delivery is not settled yet (delivered, or failed for good).
    public var unsettledBeaconCount: Int { book.records.lazy.filter { $0.state == nil }.count }
    /// Beacons an earlier run handed over (``resume(_:)``).
    @ObservationIgnored var restoration = BeaconRestoration()
    @ObservationIgnored var metadataTask: Task<Void, Never>?
    /// The provider of the session running (``start(mediaUrl:provider:)``): it reads in-band signaling, if any.
    @ObservationIgnored var provider: (any AdMetadataProvider)?
    /// The breaks whose in-band signaling was read (``takeInbandSignaling(_:)``), by ID, among those the player
    /// still knows.
    @ObservationIgnored var inbandBreaksRead: Set<String> = []
    @ObservationIgnored var streamTypeWaiters: [CheckedContinuation<StreamType, Never>] = []
    /// ``start(mediaUrl:provider:)`` calls waiting for the first metadata attempt.
    @ObservationIgnored var attemptWaiters: [CheckedContinuation<Void, Never>] = []
    @ObservationIgnored nonisolated let stopwatch: Stopwatch
    /// Where the playhead was last seen on the ad timeline.
    @ObservationIgnored private(set) var lastPosition: AdTime?
    /// Reports waiting for the first attempts at their beacons (``report(_:)``).
    @ObservationIgnored var reportWaiters = ReportWaiters()

    /// - Parameters:
    ///   - outbox: where beacons are stored and delivered (with a ``BeaconCourier`` made by ``makeCourier(transport:timeout:maximumAttempts:)``).
    ///   - clock: the clock of crossing instants and send times (a test clock in tests).
    ///   - origin: the date the clock's start stands for.
    public init(outbox: Outbox, clock: any Clock<Duration> = ContinuousClock(), origin: StreamDate? = nil) {
        self.outbox = outbox
        storeQueue = BeaconStoreQueue(outbox: outbox)
        wallClock = WallClock(clock: clock, origin: origin ?? StreamDate(Date()))
        stopwatch = Stopwatch(clock: clock)
    }

    /// The session's stopwatch now: the instants of ``beacons`` (crossings, hand-overs, deliveries) count from the
    /// session's creation, on its clock.
    public nonisolated var elapsed: Duration { stopwatch.elapsed }

    /// `metadata` with its producer-clock times placed, when it has some and the media says the producer's clock. How
    /// they are placed is said once, and again when that changes: the other clock, or an offset moved by half a second.
    private func placedOnProducerClock(_ metadata: AdMetadata) -> AdMetadata {
        guard metadata.hasProducerTimes else { return metadata }
        let offset = playerObserver.producerClockOffset
        let moved: Bool = switch (producerOffsetSaid, offset) {
        case (nil, _): true
        case (.some(nil), nil): false
        case (.some(let said?), let now?): abs((now - said).seconds) >= 0.5
        default: true
        }
        if moved {
            producerOffsetSaid = .some(offset)
            log("ad metadata times placed " + (producerClockPlacement ?? ""), isError: false)
        }
        return offset.map { metadata.placingProducerTimes(offset: $0) } ?? metadata
    }

    /// `+1.250 s`, `-0.500 s`: a producer clock's offset, to the millisecond (one that moved less is the same).
    static func signedSeconds(_ duration: Duration) -> String {
        let milliseconds = (duration.seconds * 1000).rounded()
        let text = String(format: "%.3f", abs(milliseconds) / 1000)
        return (milliseconds < 0 ? "-" : "+") + text + " s"
    }

    /// A courier for this session's outbox whose reports come back to the session.
    public func makeCourier(transport: any HTTPTransport, timeout: Duration = .seconds(5),
                            maximumAttempts: Int = 8) -> BeaconCourier {
        BeaconCourier(transport: transport, timeout: timeout, maximumAttempts: maximumAttempts) { [weak self] attempt in
            self?.courierReport(attempt)
        }
    }

    /// Takes a metadata response: merges it (fired states kept) and catches up what was played before it came.
    /// Times the metadata gives on the producer's clock are placed by the offset the media says
    /// (``AdMetadata/placingProducerTimes(offset:)``); without one, its `startTime`s are.
    public func apply(_ metadata: AdMetadata) {
        let metadata = placedOnProducerClock(metadata)
        if metadata.timeline != timeline {
            // What was played before is told again on the metadata's timeline, so that it is caught up.
            timeline = metadata.timeline
            let timeline = timeline
            scheduler.replaceHistory(with: playedSpans.spans.flatMap { span in
                PlaybackObservation.observations(for: span.progress, on: timeline, at: span.end)
                    .map { ($0, span.progress.interstitial?.event.id) }
            })
        }
        latestDataRange = metadata.dataRange ?? latestDataRange
        // A problem is said when it appears, not again at every poll that repeats it.
        let problems = metadata.problems.map { "ad metadata: \($0)" }
        for problem in problems where !lastProblems.contains(problem) { log(problem, isError: true) }
        lastProblems = Set(problems)
        // Breaks added by the app (VAST, in-manifest signalling) are not the metadata's to drop.
        let added = adPods.filter { addedPodIDs.contains($0.id) }
        adPods = (merger.merge(metadata.pods.filter { !addedPodIDs.contains($0.id) && retiredPodEnds[$0.id] == nil },
                               into: adPods.filter { !addedPodIDs.contains($0.id) }, playhead: lastPosition) + added)
            .sorted { $0.startTime < $1.startTime }
        classifyPods()
        markRestored()
        dispatch(scheduler.catchUp(&adPods))
        boundariesChanged?()
    }

    /// The break and the ad under the playhead (its 0-based place in the break), when an ad plays.
    public var adAtPlayhead: (pod: AdPod, ad: Ad, index: Int)? {
        guard let position = lastPosition, let located = locate(position), let adIndex = located.adIndex else { return nil }
        return (adPods[located.podIndex], adPods[located.podIndex].ads[adIndex], adIndex)
    }

    /// The times of the automatic events still to fire, as boundaries at which the engine ends a progress report
    /// so that each crossing is seen when it happens (``AdTracker`` hands them to the Player).
    public var progressBoundaries: [PlaybackBoundary] {
        var boundaries: [PlaybackBoundary] = []
        let timeline = timeline
        func add(_ events: [TrackingEvent]) {
            for event in events where event.reportingState == .idle && event.event.kind == .automatic {
                boundaries.append(timeline == .mediaTime ? .time(event.startTime.mediaTime) : .date(event.startTime.streamDate))
            }
        }
        // An interstitial's breaks are reached on the interstitial's timeline, not at a time of the primary.
        for pod in adPods {
            if let interstitial = interstitial(of: pod) {
                guard let base = PlaybackObservation.position(of: interstitial, on: timeline) else { continue }
                for event in pod.allTrackingEvents where event.reportingState == .idle && event.event.kind == .automatic {
                    boundaries.append(.interstitial(id: interstitial.id, time: (event.startTime - base).mediaTime))
                }
                continue
            }
            add(pod.trackingEvents)
            for ad in pod.ads { add(ad.trackingEvents) }
        }
        return boundaries
    }

    /// Told of each ad playback event (entering and leaving breaks and ads, progress, pauses): what telemetry reports.
    @ObservationIgnored public var adPlaybackObserver: (@MainActor (AdPlaybackEvent) -> Void)?
    /// The break and ad the playhead is in, as last said to ``adPlaybackObserver``.
    @ObservationIgnored var placement: AdPlacement?
    /// What was played, as the engine reported it: told again to the scheduler when the metadata's timeline turns
    /// out to be another than assumed.
    @ObservationIgnored private(set) var playedSpans = PlayedSpans()
    /// The problems of the last metadata response.
    @ObservationIgnored private var lastProblems: Set<String> = []
    /// How the metadata's times on the producer's clock (Harmonic's `prftStartTime`) were last placed, when it gives
    /// any: on that clock and by how much, or by their `startTime`.
    public var producerClockPlacement: String? {
        producerOffsetSaid.map { offset in
            offset.map { "on the producer's clock (prft): \(Self.signedSeconds($0)) from the stream's dates" }
                ?? "by their startTime: the stream says nothing of its producer's clock (no prft)"
        }
    }
    /// The producer clock's offset last said (``placedOnProducerClock(_:)``): `nil` before any, `.some(nil)` for none.
    @ObservationIgnored private var producerOffsetSaid: Duration??

    /// Called when ``progressBoundaries`` may have changed (new metadata).
    @ObservationIgnored var boundariesChanged: (@MainActor () -> Void)?

    /// Says a failure of the ad tracking (a metadata poll, a session set-up) in the log and ``latestError``.
    public func note(_ error: any Error) { log("\(error)", isError: true) }

    /// Takes a movement of the playhead.
    public func observe(_ progress: PlaybackProgress) {
        // When the playhead was at the report's end (a late tick's report says how long ago).
        let instant = stopwatch.elapsed - progress.lag
        playedSpans.remember(progress, at: instant)
        // Moving between the primary and an interstitial is neither a seek nor a rewind: each has its own timeline.
        let scope = progress.interstitial?.event.id
        if scope != scheduler.scope {
            leavePlacement(lastSeenAt: lastPosition)
            scheduler.scope = scope
            lastPosition = nil
        }
        for observation in PlaybackObservation.observations(for: progress, on: timeline, at: instant) {
            switch observation {
            case .played(let from, let to, _, _):
                // A movement that does not begin where the last one ended follows a seek: a jump back into a
                // played ad is a rewind.
                if let last = lastPosition, from.distance(to: last) > 1 {
                    dispatch(scheduler.observe(.jumped(from: last, to: from, at: instant), pods: &adPods))
                }
                lastPosition = to
            case .jumped(_, let to, _):
                lastPosition = to
            }
            if let scope, let lastPosition { lastInterstitialPositions[scope] = lastPosition }
            dispatch(scheduler.observe(observation, pods: &adPods))
            if let lastPosition { updatePlacement(at: lastPosition) }
        }
    }

    /// The interstitial that played ended: the break it was in ends where it was last seen.
    func leaveInterstitial() {
        leavePlacement(lastSeenAt: lastPosition)
        scheduler.scope = nil
        lastPosition = nil
    }

    /// Names the interstitial of each break that begins where one does on the ad timeline (within
    /// ``interstitialMatchTolerance``): those breaks are its ads, reached only while it plays.
    func classifyPods() {
        var scopes: [String: String] = [:]
        if !interstitialSchedule.isEmpty {
            let starts = interstitialSchedule.compactMap { event in
                PlaybackObservation.position(of: event, on: timeline).map { (event.id, $0) }
            }
            for pod in adPods {
                if let match = starts.min(by: { $0.1.distance(to: pod.startTime) < $1.1.distance(to: pod.startTime) }),
                   match.1.distance(to: pod.startTime) <= Self.interstitialMatchTolerance {
                    scopes[pod.id] = match.0
                }
            }
        }
        guard scopes != scheduler.podScopes else { return }
        scheduler.podScopes = scopes
        boundariesChanged?()
    }

    /// How far apart a break's start and an interstitial's may be for the break to be the interstitial's.
    static let interstitialMatchTolerance: AdTime = 500

    /// The interstitial a break belongs to, if any.
    func interstitial(of pod: AdPod) -> InterstitialEvent? {
        guard let id = scheduler.podScopes[pod.id] else { return nil }
        return interstitialSchedule.first { $0.id == id }
    }

    /// Fires the player-initiated events of a type for the ad under `position` (on the ad timeline); returns their
    /// delivery keys (none: no ad there, or the ad has no such event).
    @discardableResult
    public func report(_ type: TrackingEventType, at position: AdTime) -> [String] {
        dispatch(scheduler.report(type, at: position, instant: stopwatch.elapsed, pods: &adPods))
    }

    /// Fires the player-initiated events of a type for the ad at `position` of an interstitial's timeline (`scope`,
    /// its ID) or of the primary's (`nil`).
    @discardableResult
    func report(_ type: TrackingEventType, at position: AdTime, scope: String?) -> [String] {
        let previous = scheduler.scope
        scheduler.scope = scope
        defer { scheduler.scope = previous }
        return dispatch(scheduler.report(type, at: position, instant: stopwatch.elapsed, pods: &adPods))
    }

    /// Fills each firing's URLs and hands them to the outbox; returns their delivery keys. The records are made at
    /// once; the URLs are written to the outbox by a task the session owns, off the main actor (SQLite writes never
    /// run on the thread the UI runs on), and a URL that an earlier run handed over, or that could not be stored,
    /// gets its outcome when its write returns.
    @discardableResult
    func dispatch(_ firings: [BeaconFiring]) -> [String] {
        var keys: [String] = []
        var messages: [BeaconStoreQueue.Beacon] = []
        for firing in firings {
            let deliveryKey = firing.deliveryKey(session: identity, reportedAt: wallClock.now)
            let prepared = PreparedBeacon(firing, deliveryKey: deliveryKey, values: macroValues(for: firing),
                                          sentAt: stopwatch.elapsed, remembersKey: remembersDeliveredBeacons)
            for note in prepared.notes { log(note.message, isError: note.isError) }
            messages += prepared.messages
            book.add(prepared.record, deliveryKey: deliveryKey)
            log("fired \(firing.key) (\(firing.cause.rawValue)) to \(firing.urls.count) URL(s)", isError: false)
            settle(deliveryKey)
            keys.append(deliveryKey)
        }
        store(messages)
        return keys
    }

    /// The values of a firing's macros: the time, the playheads, the break's position, the ad's VAST context.
    private func macroValues(for firing: BeaconFiring) -> BeaconMacroValues {
        var values = BeaconMacroValues(timestamp: wallClock.now, adPlayhead: firing.adPlayhead?.mediaTime,
                                       limitAdTracking: limitAdTracking)
        let pod = adPods.first { $0.id == firing.key.podID }
        if let pod { values.breakPosition = breakPosition(of: pod).rawValue }
        values.errorCode = firing.errorCode
        values.clientUA = clientUA
        if firing.event == .verificationNotExecuted { values.reason = Self.verificationNotSupported }
        if let adID = firing.key.adID, let context = vast.context(pod: firing.key.podID, ad: adID) { values.apply(context) }
        // During an interstitial the content waits where the interstitial began.
        values.mediaPlayhead = pod.flatMap(interstitial(of:)).map(\.start)
            ?? contentPosition(of: max(firing.mediaTime, firing.adStart ?? firing.mediaTime))
        return values
    }

    /// Takes a ``BeaconCourier``'s report of an attempt (``makeCourier(transport:timeout:maximumAttempts:)`` wires
    /// it; a courier made before the session, as the Outbox needs its couriers first, calls this), from the
    /// courier's own task: the attempt's end is read on the session's clock at once (a delivery's instant is the
    /// response's arrival), and the record updated on the main actor.
    public nonisolated func courierReport(_ attempt: BeaconAttempt) {
        let instant = stopwatch.elapsed
        Task { @MainActor in self.attemptFinished(attempt, at: instant) }
    }

    private func attemptFinished(_ attempt: BeaconAttempt, at instant: Duration) {
        guard let slash = attempt.key.lastIndex(of: "/"), let index = Int(attempt.key[attempt.key.index(after: slash)...])
        else { return }
        let deliveryKey = String(attempt.key[..<slash])
        if restoration.contains(deliveryKey) {
            let (event, failure) = restoration.attemptFinished(attempt, deliveryKey: deliveryKey, index: index)
            if let failure { log(failure, isError: true) }
            if let (key, state) = event { setState(state, of: key) }
            return
        }
        var failure: String?
        let known = book.update(deliveryKey, url: index) { url in
            url.attempts = attempt.attempt
            switch attempt.outcome {
            case .delivered: url.outcome = .delivered(instant)
            case .reject(let reason), .split(let reason):
                url.outcome = .failed(reason)
                failure = reason
            case .retry, .pause: break
            }
        }
        guard known, let record = book.record(deliveryKey) else { return }
        if let failure { log("beacon \(record.firing.key.name) failed for good: \(failure)", isError: true) }
        settle(deliveryKey)
        resumeReportWaiters()
    }

    /// Moves a fired event to done or failed once every URL of its occurrence has an outcome: failed when one of
    /// its URLs failed, done otherwise (URLs refused by policy or with nothing to request are said, not failures).
    func settle(_ deliveryKey: String) {
        guard let record = book.record(deliveryKey), let state = record.state else { return }
        setState(state, of: record.firing.key)
    }

    func setState(_ state: ReportingState, of key: TrackingEventKey) {
        for podIndex in adPods.indices where adPods[podIndex].id == key.podID {
            if key.adID == nil {
                if let index = adPods[podIndex].trackingEvents.firstIndex(where: { $0.id == key }) {
                    adPods[podIndex].trackingEvents[index].reportingState = state
                }
            } else if let adIndex = adPods[podIndex].ads.firstIndex(where: { $0.id == key.adID }),
                      let index = adPods[podIndex].ads[adIndex].trackingEvents.firstIndex(where: { $0.id == key }) {
                adPods[podIndex].ads[adIndex].trackingEvents[index].reportingState = state
            }
        }
    }

    func log(_ message: String, isError: Bool) { messageLog.append(message, isError: isError, at: wallClock.now) }
}
