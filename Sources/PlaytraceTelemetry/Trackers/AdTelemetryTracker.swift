import Foundation
import PlaytraceCore

/// An ad as ``AdTelemetryTracker`` reports it (from VAST, SSAI metadata or an ad SDK).
public struct TelemetryAd: Sendable, Hashable {
    /// The ad's identifier: `adId`.
    public var id: String
    public var title: String?
    /// `adCreativeId`.
    public var creativeID: String?
    /// The ad server: `adSystem`.
    public var system: String?
    /// `adAdvertiserName`.
    public var advertiser: String?
    /// `adDescription`.
    public var description: String?
    /// How long the ad lasts: `adDuration` (ms), and the reference of its quartiles.
    public var duration: Duration?
    /// `adBitrate`, bits per second.
    public var bitrate: Int?
    public var width: Int?
    public var height: Int?

    public init(id: String, title: String? = nil, creativeID: String? = nil, system: String? = nil,
                advertiser: String? = nil, description: String? = nil, duration: Duration? = nil,
                bitrate: Int? = nil, width: Int? = nil, height: Int? = nil) {
        self.id = id
        self.title = title
        self.creativeID = creativeID
        self.system = system
        self.advertiser = advertiser
        self.description = description
        self.duration = duration
        self.bitrate = bitrate
        self.width = width
        self.height = height
    }
}

/// Where an ad break plays: `adRoll`.
public enum AdRoll: String, Sendable, Hashable {
    case pre
    case mid
    case post
}

/// Reports ads to an ``Instrument``: the ad-tracking code (or an app's ad SDK) tells it as breaks and ads begin,
/// progress and end, and it emits OpenAVT's ad actions with the ad's attributes. ``HubCoreAds`` links them to the
/// content tracker: ad time is not content play time, and ad events carry the content's playhead.
///
/// Quartiles are derived from the ad's progress against its duration, each at most once per ad, in order even when
/// progress jumps (a seek back does not repeat them). An ad ends with ``adEnded()``, ``adSkipped()`` or
/// ``adFailed(_:)``; ``breakEnded()`` closes an ad still open.
///
/// ```swift
/// let ads = AdTelemetryTracker(instrument: instrument, sessionID: viewer)
/// ads.breakBegan(roll: .mid)
/// ads.adBegan(TelemetryAd(id: "ad-1", title: "Spring sale", duration: .seconds(15)))
/// ads.adProgressed(to: .seconds(4))   // AdFirstQuartile
/// ads.adEnded()
/// ads.breakEnded()
/// ```
///
/// Call it from one context at a time (the ad session's): its events are emitted in the order of the calls.
public final class AdTelemetryTracker: Sendable {
    private struct State {
        var isBreakOpen = false
        var ad: TelemetryAd?
        var quartiles = 0
        var isPaused = false
        var isBuffering = false
    }

    private static let quartileActions: [Action] = [.adFirstQuartile, .adSecondQuartile, .adThirdQuartile]

    private let instrument: Instrument
    private let component: AdTrackerComponent
    /// The tracker's identifier in the instrument.
    public let trackerID: TrackerID
    private let state = Locked(State())

    /// Adds an ads tracker to an instrument (removed when this object goes away).
    /// - Parameters:
    ///   - instrument: the instrument the ad events go to.
    ///   - sessionID: the viewing session the ads belong to (the content tracker's `sessionId`).
    public init(instrument: Instrument, sessionID: String? = nil) {
        self.instrument = instrument
        component = AdTrackerComponent(sessionID: sessionID)
        trackerID = instrument.addTracker(component)
    }

    deinit {
        instrument.removeTracker(trackerID)
    }

    /// An ad break began: AdBreakBegin.
    public func breakBegan(roll: AdRoll) {
        let began = state.withLock { state -> Bool in
            guard !state.isBreakOpen else { return false }
            state.isBreakOpen = true
            return true
        }
        guard began else { return }
        component.update { $0.roll = roll }
        emit(.adBreakBegin)
    }

    /// An ad of the break began: AdBegin (an ad still open ends first).
    public func adBegan(_ ad: TelemetryAd) {
        adEnded()
        let began = state.withLock { state -> Bool in
            guard state.isBreakOpen else { return false }
            state = State(isBreakOpen: true, ad: ad)
            return true
        }
        guard began else { return }
        component.update {
            $0.ad = ad
            $0.position = .zero
        }
        emit(.adBegin)
    }

    /// The ad's playhead moved: the quartiles it crossed, once each.
    public func adProgressed(to position: Duration) {
        let due = state.withLock { state -> [Action] in
            guard let duration = state.ad?.duration, duration > .zero else { return [] }
            let reached = min(3, max(0, Int(saturating: ((position / duration) * 4 + 1e-9).rounded(.down))))
            guard reached > state.quartiles else { return [] }
            defer { state.quartiles = reached }
            return Array(Self.quartileActions[state.quartiles..<reached])
        }
        component.update { $0.position = max(.zero, position) }
        for action in due { emit(action) }
    }

    /// The ad paused or resumed: AdPauseBegin, AdPauseFinish.
    public func adPaused() { toggle(\.isPaused, to: true, .adPauseBegin) }
    public func adResumed() { toggle(\.isPaused, to: false, .adPauseFinish) }

    /// The ad ran out of data, or recovered: AdBufferBegin, AdBufferFinish.
    public func adBufferBegan() { toggle(\.isBuffering, to: true, .adBufferBegin) }
    public func adBufferEnded() { toggle(\.isBuffering, to: false, .adBufferFinish) }

    /// The viewer clicked the ad: AdClick.
    public func adClicked() {
        guard state.withLock({ $0.ad != nil }) else { return }
        emit(.adClick)
    }

    /// The ad played out: AdFinish.
    public func adEnded() { close(with: .adFinish) }

    /// The viewer skipped the ad: AdSkip (which closes it).
    public func adSkipped() { close(with: .adSkip) }

    /// The ad failed: AdError with its description (which closes it).
    public func adFailed(_ description: String) {
        var attributes = AttributeList()
        attributes[.errorDescription] = .string(description)
        close(with: .adError, attributes: attributes)
    }

    /// The break ended: AdBreakFinish (an ad still open ends first).
    public func breakEnded() {
        adEnded()
        let ended = state.withLock { state -> Bool in
            guard state.isBreakOpen else { return false }
            state = State()
            return true
        }
        guard ended else { return }
        emit(.adBreakFinish)
        component.update { $0 = AdTrackerComponent.Snapshot(volume: $0.volume) }
    }

    /// The ad player's volume (0–100): `adVolume` on the events that follow.
    public func volumeChanged(to volume: Int) {
        component.update { $0.volume = min(max(volume, 0), 100) }
    }

    private func toggle(_ flag: WritableKeyPath<State, Bool>, to value: Bool, _ action: Action) {
        let changed = state.withLock { state -> Bool in
            guard state.ad != nil, state[keyPath: flag] != value else { return false }
            state[keyPath: flag] = value
            return true
        }
        if changed { emit(action) }
    }

    private func close(with action: Action, attributes: AttributeList? = nil) {
        let closed = state.withLock { state -> Bool in
            guard state.ad != nil else { return false }
            state = State(isBreakOpen: state.isBreakOpen)
            return true
        }
        if closed { emit(action, attributes: attributes) }
    }

    private func emit(_ action: Action, attributes: AttributeList? = nil) {
        instrument.emit(action, tracker: trackerID, attributes: attributes)
    }
}

/// The instrument-side half of ``AdTelemetryTracker``: completes its events with the ad's attributes.
final class AdTrackerComponent: TelemetryTracker, Sendable {
    struct Snapshot: Sendable {
        var roll: AdRoll?
        var ad: TelemetryAd?
        var position: Duration = .zero
        var volume: Int?
    }

    let sessionID: String?
    private let snapshot = Locked(Snapshot())

    init(sessionID: String?) {
        self.sessionID = sessionID
    }

    var isAdsTracker: Bool { true }

    func update(_ change: (inout Snapshot) -> Void) {
        snapshot.withLock { change(&$0) }
    }

    func initEvent(_ event: inout Event, instrument: Instrument, tracker: TrackerID) -> Bool {
        let current = snapshot.withLock { $0 }
        func fill(_ attribute: Attribute, _ value: AttributeValue?) {
            if let value, event[attribute] == nil { event[attribute] = value }
        }
        fill(.trackerTarget, "Ads")
        fill(.isAdsTracker, true)
        fill(.sessionId, sessionID.map { .string($0) })
        fill(.adRoll, current.roll.map { .string($0.rawValue) })
        fill(.adVolume, current.volume.map { .int($0) })
        guard let ad = current.ad else { return true }
        fill(.adId, .string(ad.id))
        fill(.adTitle, ad.title.map { .string($0) })
        fill(.adCreativeId, ad.creativeID.map { .string($0) })
        fill(.adSystem, ad.system.map { .string($0) })
        fill(.adAdvertiserName, ad.advertiser.map { .string($0) })
        fill(.adDescription, ad.description.map { .string($0) })
        fill(.adDuration, ad.duration.map { .int($0.milliseconds) })
        fill(.adPosition, .int(current.position.milliseconds))
        fill(.adBitrate, ad.bitrate.map { .int($0) })
        fill(.adResolutionWidth, ad.width.map { .int($0) })
        fill(.adResolutionHeight, ad.height.map { .int($0) })
        return true
    }
}
